// Buttons of the panels (the toolkit's vscode-button).
import { el } from './dom';
import { registerToolkit, type ValueElement } from './toolkit';

export interface ButtonOptions {
  appearance?: 'primary' | 'secondary';
  id?: string;
  title?: string;
  onClick: () => void;
}

export type Button = ValueElement;

export function button(label: string, options: ButtonOptions): Button {
  registerToolkit();
  const element = el('vscode-button', {
    id: options.id,
    text: label,
    attrs: { appearance: options.appearance ?? 'secondary', title: options.title },
  }) as Button;
  element.addEventListener('click', () => {
    if (!element.disabled) options.onClick();
  });
  return element;
}
