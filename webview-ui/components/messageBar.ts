// A message at the top of a panel (success, error, information) with optional action buttons; announced
// to screen readers through a live region.
import { button } from './button';
import { clear, el } from './dom';

export type MessageLevel = 'info' | 'success' | 'error';

export interface MessageAction {
  label: string;
  id?: string;
  run: () => void;
}

export interface MessageBar {
  readonly element: HTMLElement;
  show(level: MessageLevel, text: string, actions?: readonly MessageAction[]): void;
  hide(): void;
}

export function messageBar(id: string): MessageBar {
  const element = el('div', { id, className: 'message-bar', attrs: { role: 'status', 'aria-live': 'polite', hidden: '' } });
  return {
    element,
    show(level, text, actions = []) {
      clear(element);
      element.dataset.level = level;
      element.append(el('span', { className: 'message-text', text }));
      const buttons = actions.map((action) => button(action.label, { id: action.id, onClick: action.run }));
      if (buttons.length > 0) element.append(el('span', { className: 'message-actions' }, ...buttons));
      element.hidden = false;
    },
    hide() {
      element.hidden = true;
      clear(element);
    },
  };
}
