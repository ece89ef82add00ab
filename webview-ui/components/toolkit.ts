// The one place that knows the panels are built with @vscode/webview-ui-toolkit (archived upstream, so it
// must stay swappable): only the components the panels use are registered, which keeps the bundles small.
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeCheckbox,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeProgressRing,
  vsCodeRadio,
  vsCodeRadioGroup,
  vsCodeTextArea,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';

let registered = false;

/** Registers the toolkit's elements once; the toolkit follows the VS Code theme from then on. */
export function registerToolkit(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(
    vsCodeButton(),
    vsCodeCheckbox(),
    vsCodeDropdown(),
    vsCodeOption(),
    vsCodeProgressRing(),
    vsCodeRadio(),
    vsCodeRadioGroup(),
    vsCodeTextArea(),
    vsCodeTextField(),
  );
}

/** What the toolkit's value-holding elements have in common (FAST form-associated elements). */
export interface ValueElement extends HTMLElement {
  value: string;
  disabled: boolean;
}

export interface CheckableElement extends HTMLElement {
  checked: boolean;
  disabled: boolean;
}
