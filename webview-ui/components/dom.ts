// Building DOM without markup strings: every text goes in through textContent, so a record value such as
// `<img src=x onerror=...>` is shown as those characters and never parsed as HTML.

export interface ElementOptions {
  className?: string;
  id?: string;
  text?: string;
  attrs?: Record<string, string | undefined>;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options?: ElementOptions,
  ...children: Array<Node | undefined>
): HTMLElementTagNameMap[K];
export function el(tag: string, options?: ElementOptions, ...children: Array<Node | undefined>): HTMLElement;
export function el(tag: string, options: ElementOptions = {}, ...children: Array<Node | undefined>): HTMLElement {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.id) element.id = options.id;
  if (options.text !== undefined) element.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

/** A wide table in a box of its own that scrolls across: reachable by the keyboard (a tab stop) and named for it. */
export function scrollRegion(label: string, content: HTMLElement): HTMLElement {
  return el('div', { className: 'table-scroll', attrs: { role: 'region', tabindex: '0', 'aria-label': label } }, content);
}

export function clear(node: Node): void {
  while (node.firstChild) node.firstChild.remove();
}

/** A colour swatch for a choice; the colour is set through the CSSOM (allowed by the CSP) and checked first. */
export function swatch(color: string | undefined): HTMLElement | undefined {
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return undefined;
  const element = el('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
  element.style.backgroundColor = color;
  return element;
}

let counter = 0;

/** A document-unique id for label/describedby pairs. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}
