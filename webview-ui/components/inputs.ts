// The panels' inputs, one shape for all: the toolkit's text field, text area, dropdown, radio group and
// checkboxes, and the browser's own date and date-time inputs (the toolkit has none), styled with the same
// theme variables. Callers see `Input` and never the element types behind it.
import { clear, el, swatch, uniqueId } from './dom';
import { registerToolkit, type CheckableElement, type ValueElement } from './toolkit';

export interface Input {
  /** The whole control, label included, to place in the page. */
  readonly element: HTMLElement;
  value: string;
  focus(): void;
  setInvalid(invalid: boolean): void;
  /** Makes the text of these elements (a hint, the reason the value is refused) the control's description. */
  describeBy(elements: readonly HTMLElement[]): void;
  setDisabled(disabled: boolean): void;
  /** Every change while typing or choosing. */
  onInput(listener: () => void): void;
  /** The user is done with the value (change or blur): the moment to check it. */
  onCommit(listener: () => void): void;
}

export interface Option {
  value: string;
  label: string;
  color?: string;
}

function listen(element: HTMLElement, events: readonly string[], listener: () => void): void {
  for (const name of events) element.addEventListener(name, listener);
}

/** The text of a label as a screen reader reads it: without what it hides (the "*" of a required field). */
function spokenText(node: Node): string {
  if (node instanceof Element && node.getAttribute('aria-hidden') === 'true') return '';
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  return [...node.childNodes].map(spokenText).join('');
}

/**
 * The toolkit's text field and area set their own aria-label each time they connect: their whole text
 * (the label with its hidden "*", and the currency symbol) or, with none, "Text field", over any name
 * given. The name meant is put back whenever it is replaced (an observer's callback runs before the page
 * is drawn or read).
 */
function keepName(element: HTMLElement, name: string): void {
  if (name === '') return;
  const restore = (): void => {
    if (element.getAttribute('aria-label') !== name) element.setAttribute('aria-label', name);
  };
  restore();
  new MutationObserver(restore).observe(element, { attributes: true, attributeFilter: ['aria-label'] });
}

/** An aria-describedby for a control in the page's own tree: the elements' ids, given one where missing. */
function describedByIds(control: HTMLElement, elements: readonly HTMLElement[]): void {
  for (const element of elements) element.id ||= uniqueId('description');
  if (elements.length > 0) control.setAttribute('aria-describedby', elements.map((element) => element.id).join(' '));
  else control.removeAttribute('aria-describedby');
}

/**
 * The description of a toolkit text field or area. Its <input>/<textarea> lives in the element's shadow
 * root, and the toolkit copies an aria-describedby id list there, where the page's ids do not resolve. An
 * element reference (ARIA element reflection) set on the inner control may point out to the page's tree,
 * so it is set there (or, where the browser has no element reflection, the text as aria-description). The
 * inner control exists once the element has rendered (on its first connection,
 * which no event announces): set after the caller's task, on focus, and whenever the field's validity
 * changes; each costs nothing.
 */
/** Whether the browser has ARIA element reflection (Chromium 135 and later); the DOM types assume it. */
const reflectsElements = (element: Element): boolean => 'ariaDescribedByElements' in element;

function shadowDescription(control: HTMLElement): { set(elements: readonly HTMLElement[]): void; refresh(): void } {
  let described: readonly HTMLElement[] = [];
  const refresh = (): void => {
    const inner = control.shadowRoot?.querySelector<HTMLElement>('input, textarea');
    if (!inner) return;
    if (reflectsElements(inner)) inner.ariaDescribedByElements = described.length > 0 ? [...described] : null;
    else {
      // Chromium before 135 (VS Code 1.100's) has no element reflection: the text itself, as it reads now.
      const text = described
        .map((element) => element.textContent?.trim() ?? '')
        .filter(Boolean)
        .join(' ');
      if (text) inner.setAttribute('aria-description', text);
      else inner.removeAttribute('aria-description');
    }
  };
  control.addEventListener('focusin', refresh);
  return {
    set: (elements) => {
      described = [...elements];
      refresh();
      queueMicrotask(refresh);
    },
    refresh,
  };
}

export type TextKind = 'text' | 'email' | 'tel' | 'url';

export interface TextFieldOptions {
  label: Node;
  type?: TextKind;
  placeholder?: string;
  required?: boolean;
  /** Shown before the text, not part of the value (a currency symbol). */
  prefix?: string;
  inputMode?: string;
  ariaLabel?: string;
}

export function textField(options: TextFieldOptions): Input {
  registerToolkit();
  const field = el(
    'vscode-text-field',
    { attrs: { type: options.type ?? 'text', placeholder: options.placeholder } },
    options.label,
  ) as ValueElement;
  keepName(field, options.ariaLabel ?? spokenText(options.label).trim());
  if (options.required) field.setAttribute('required', '');
  if (options.prefix)
    field.append(el('span', { className: 'prefix', text: options.prefix, attrs: { slot: 'start', 'aria-hidden': 'true' } }));
  if (options.inputMode) {
    // The inner <input> exists once the element has rendered.
    queueMicrotask(() => field.shadowRoot?.querySelector('input')?.setAttribute('inputmode', options.inputMode ?? 'text'));
  }
  return valueInput(field, field, shadowDescription(field));
}

export function textArea(options: { label: Node; placeholder?: string; required?: boolean }): Input {
  registerToolkit();
  const area = el(
    'vscode-text-area',
    { attrs: { placeholder: options.placeholder, rows: '4', resize: 'vertical' } },
    options.label,
  ) as ValueElement;
  keepName(area, spokenText(options.label).trim());
  if (options.required) area.setAttribute('required', '');
  return valueInput(area, area, shadowDescription(area));
}

type Description = ReturnType<typeof shadowDescription>;

/** A control that is its own accessible element (the dropdown's host is the combobox) is described by ids. */
function ownDescription(control: HTMLElement): Description {
  return { set: (elements) => describedByIds(control, elements), refresh: () => undefined };
}

function valueInput(container: HTMLElement, control: ValueElement, description: Description = ownDescription(control)): Input {
  return {
    element: container,
    get value() {
      return control.value ?? '';
    },
    set value(value: string) {
      control.value = value;
    },
    focus: () => control.focus(),
    setInvalid: (invalid) => {
      if (invalid) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
      description.refresh();
    },
    describeBy: (elements) => description.set(elements),
    setDisabled: (disabled) => {
      control.disabled = disabled;
    },
    onInput: (listener) => listen(control, ['input'], listener),
    onCommit: (listener) => listen(control, ['change', 'focusout'], listener),
  };
}

function optionContent(option: Option): Node[] {
  const mark = swatch(option.color);
  return mark ? [mark, document.createTextNode(option.label)] : [document.createTextNode(option.label)];
}

export interface DropdownOptions {
  label?: Node;
  ariaLabel?: string;
  options: readonly Option[];
  value?: string;
}

/** A single choice from a list (the toolkit's dropdown) with a visible label beside it when given. */
export function dropdown(options: DropdownOptions): Input & { setOptions(options: readonly Option[], value?: string): void } {
  registerToolkit();
  const select = el('vscode-dropdown', { attrs: { 'aria-label': options.ariaLabel } }) as ValueElement;
  let wanted: string | undefined;
  // The toolkit takes in new options when their slot changes (a microtask later), keeps the old selected
  // index and shows the new option at that index without any event; before it is in the page it takes the
  // option marked `selected`. So a value is marked on its option, set, and set again once the options are
  // in: what the dropdown shows is always what it reports.
  const choose = (value: string): void => {
    wanted = value;
    for (const option of select.children) option.toggleAttribute('selected', option.getAttribute('value') === value);
    select.value = value;
    queueMicrotask(() => {
      if (wanted === value && select.value !== value) select.value = value;
    });
  };
  const fill = (items: readonly Option[], value?: string): void => {
    clear(select);
    for (const item of items) select.append(el('vscode-option', { attrs: { value: item.value } }, ...optionContent(item)));
    if (value !== undefined) choose(value);
  };
  fill(options.options, options.value);
  let element: HTMLElement = select;
  if (options.label) {
    const labelId = uniqueId('label');
    select.setAttribute('aria-labelledby', labelId);
    element = el('div', { className: 'labelled' }, el('span', { className: 'label', id: labelId }, options.label), select);
  }
  // Not a spread: that would copy the value getter's current result instead of the getter.
  const input = valueInput(element, select);
  Object.defineProperty(input, 'value', { get: () => select.value ?? '', set: (value: string) => choose(value), enumerable: true });
  // The user's choice is the value to keep from now on.
  select.addEventListener('change', () => (wanted = select.value));
  input.onInput = (listener) => listen(select, ['change'], listener);
  input.onCommit = (listener) => listen(select, ['change'], listener);
  return Object.assign(input, { setOptions: fill });
}

/** A single choice shown as radio buttons. */
export function radioGroup(options: { label: Node; options: readonly Option[]; required?: boolean }): Input {
  registerToolkit();
  const group = el(
    'vscode-radio-group',
    { attrs: { orientation: 'horizontal' } },
    el('label', { attrs: { slot: 'label' } }, options.label),
  ) as ValueElement;
  // The toolkit's group has the role radiogroup, which takes aria-required.
  if (options.required) group.setAttribute('aria-required', 'true');
  const radios = options.options.map(
    (item) => el('vscode-radio', { attrs: { value: item.value } }, ...optionContent(item)) as CheckableElement & { value: string },
  );
  group.append(...radios);
  return {
    element: group,
    get value() {
      return radios.find((radio) => radio.checked)?.value ?? '';
    },
    set value(value: string) {
      // Before the group is in the page it checks the radio of its own value (or marked checked) and
      // unchecks the others: say it all three ways.
      group.value = value;
      for (const radio of radios) {
        radio.toggleAttribute('checked', radio.value === value);
        radio.checked = radio.value === value;
      }
    },
    focus: () => (radios.find((radio) => radio.checked) ?? radios[0])?.focus(),
    setInvalid: (invalid) => (invalid ? group.setAttribute('aria-invalid', 'true') : group.removeAttribute('aria-invalid')),
    describeBy: (elements) => describedByIds(group, elements),
    setDisabled: (disabled) => {
      group.disabled = disabled;
    },
    onInput: (listener) => listen(group, ['change'], listener),
    onCommit: (listener) => listen(group, ['change'], listener),
  };
}

/**
 * Several choices as checkboxes; the value is the checked values joined by "," in the options' order. A
 * group (fieldset) takes no aria-required: a required group says so in its label.
 */
export function checkboxes(options: { label: Node; options: readonly Option[] }): Input {
  registerToolkit();
  const boxes = options.options.map((item) => {
    const box = el('vscode-checkbox', { attrs: { value: item.value } }, ...optionContent(item)) as CheckableElement;
    return { box, value: item.value };
  });
  const fieldset = el('fieldset', { className: 'checkboxes' }, el('legend', {}, options.label), ...boxes.map(({ box }) => box));
  return {
    element: fieldset,
    get value() {
      return boxes
        .filter(({ box }) => box.checked)
        .map(({ value }) => value)
        .join(',');
    },
    set value(value: string) {
      const chosen = new Set(value.split(','));
      for (const { box, value: id } of boxes) box.checked = chosen.has(id);
    },
    focus: () => boxes[0]?.box.focus(),
    setInvalid: (invalid) => (invalid ? fieldset.setAttribute('aria-invalid', 'true') : fieldset.removeAttribute('aria-invalid')),
    describeBy: (elements) => describedByIds(fieldset, elements),
    setDisabled: (disabled) => {
      for (const { box } of boxes) box.disabled = disabled;
    },
    onInput: (listener) => listen(fieldset, ['change'], listener),
    onCommit: (listener) => listen(fieldset, ['change'], listener),
  };
}

/** The browser's date ("date": YYYY-MM-DD) or local date-time ("datetime-local": YYYY-MM-DDThh:mm) input. */
export function nativeInput(options: { label: Node; type: 'date' | 'datetime-local'; required?: boolean }): Input {
  const id = uniqueId('input');
  const input = el('input', { id, className: 'native-input', attrs: { type: options.type } });
  if (options.required) input.required = true;
  return valueInput(
    el('div', { className: 'native-field' }, el('label', { className: 'label', attrs: { for: id } }, options.label), input),
    input,
  );
}
