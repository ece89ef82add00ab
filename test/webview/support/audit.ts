// Audits of a panel as it is shown: axe-core (the engine of the browsers' own accessibility audits) run in
// the page, every rule it runs by default, and a look at the layout (nothing overlapping, nothing cut off
// without a way to reach it). Each finding is one line naming the rule, the element and what was measured,
// so a failing test says what to fix.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The little of axe's results read here. */
interface AxeCheck {
  id: string;
  message: string;
  data?: { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string } | null;
}

interface AxeNodeResult {
  target: unknown[];
  html: string;
  any: AxeCheck[];
  all: AxeCheck[];
  none: AxeCheck[];
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNodeResult[];
}

let axeSource: string | undefined;

function source(): string {
  // Resolved from the repository (the bundled test has no node_modules beside it).
  axeSource ??= readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

function describeNode(node: AxeNodeResult): string {
  const checks = [...node.any, ...node.all, ...node.none];
  const contrast = checks.find((check) => check.data?.contrastRatio !== undefined)?.data;
  const measured = contrast
    ? `${contrast.fgColor ?? '?'} on ${contrast.bgColor ?? '?'} is ${contrast.contrastRatio ?? '?'}:1, ${contrast.expectedContrastRatio ?? '?'} needed`
    : (checks[0]?.message ?? '');
  return `${JSON.stringify(node.target)} ${node.html.slice(0, 120)}: ${measured}`;
}

/**
 * axe-core's violations in the page, one line per element. Injected through DevTools (not a script tag)
 * so the panel's own Content-Security-Policy stays as it is.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(source());
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }).axe;
    const results = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return JSON.parse(JSON.stringify(results.violations)) as unknown;
  });
  return (violations as AxeViolation[]).flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact ?? 'no impact'}): ${violation.help}; ${describeNode(node)}`),
  );
}

/**
 * The layout's problems, measured in the page: see layoutProblemsInPage. `reflow`: the page must not
 * scroll across either (WCAG 1.4.10 at 200% zoom); without it, a page wider than the window is reachable
 * by scrolling and only what is hidden for good counts.
 */
export async function layoutProblems(page: Page, options: { reflow: boolean }): Promise<string[]> {
  return page.evaluate(layoutProblemsInPage, options.reflow);
}

/** What runs in the page (kept free of the node side's types: the page's DOM is typed loosely here). */
function layoutProblemsInPage(reflow: boolean): string[] {
  interface Rect {
    left: number;
    top: number;
    right: number;
    bottom: number;
    width: number;
    height: number;
  }
  interface El {
    tagName: string;
    id: string;
    className: unknown;
    children: ArrayLike<El>;
    childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
    parentElement: El | null;
    shadowRoot: { children: ArrayLike<El> } | null;
    scrollWidth: number;
    clientWidth: number;
    scrollHeight: number;
    clientHeight: number;
    title: string;
    contains(other: El): boolean;
    getRootNode(): { host?: El };
    getAttribute(name: string): string | null;
    getBoundingClientRect(): Rect;
    matches(selector: string): boolean;
  }
  interface Style {
    display: string;
    visibility: string;
    overflowX: string;
    overflowY: string;
    textOverflow: string;
    position: string;
    opacity: string;
  }
  const win = globalThis as unknown as {
    document: {
      body: El;
      documentElement: El;
      activeElement: El | null;
      getElementById(id: string): El | null;
      elementFromPoint(x: number, y: number): El | null;
    };
    innerWidth: number;
    innerHeight: number;
    getComputedStyle(element: El): Style;
  };
  const problems: string[] = [];
  const name = (element: El): string =>
    `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}`;
  const parentOf = (element: El): El | null => element.parentElement ?? element.getRootNode().host ?? null;
  const sticky = (element: El): boolean => win.getComputedStyle(element).position === 'sticky';
  /** Inside a sticky element (a frozen column, a grid's header): it covers what scrolls under it, by design. */
  const stuck = (element: El): boolean => {
    for (let at: El | null = element; at && at !== win.document.body; at = parentOf(at))
      if (win.getComputedStyle(at).position === 'sticky') return true;
    return false;
  };
  const shown = (element: El): boolean => {
    const style = win.getComputedStyle(element);
    const rect = element.getBoundingClientRect();
    // 1 × 1 is the visually hidden text a screen reader reads and nobody sees.
    return style.display !== 'none' && style.visibility !== 'hidden' && style.opacity !== '0' && rect.width > 1 && rect.height > 1;
  };
  const scrolls = (value: string): boolean => value === 'auto' || value === 'scroll';
  const clips = (value: string): boolean => value === 'hidden' || value === 'clip';
  /** Elements a person reads or uses: controls and elements with text of their own, in light and shadow DOM. */
  const boxes: El[] = [];
  const visit = (element: El): void => {
    if (!shown(element)) return;
    const ownText = [...Array.from(element.childNodes)].some((node) => node.nodeType === 3 && (node.textContent ?? '').trim() !== '');
    const control = element.matches(
      'button, input, select, textarea, a[href], [tabindex], [role="button"], [role="option"], [role="checkbox"], [role="radio"]',
    );
    if (ownText || control) boxes.push(element);
    for (const child of Array.from(element.children)) visit(child);
    if (element.shadowRoot) for (const child of Array.from(element.shadowRoot.children)) visit(child);
  };
  visit(win.document.body);

  const root = win.document.documentElement;
  const pageScrollsX =
    root.scrollWidth > root.clientWidth &&
    !clips(win.getComputedStyle(root).overflowX) &&
    !clips(win.getComputedStyle(win.document.body).overflowX);
  const pageScrollsY =
    root.scrollHeight > root.clientHeight &&
    !clips(win.getComputedStyle(root).overflowY) &&
    !clips(win.getComputedStyle(win.document.body).overflowY);
  // Reflow: the page itself does not scroll across (a grid scrolls inside its own box); what sticks out is named.
  if (reflow && root.scrollWidth > root.clientWidth + 1) {
    const widest = boxes
      .filter((box) => box.getBoundingClientRect().right > root.clientWidth + 1)
      .slice(0, 3)
      .map(name);
    problems.push(
      `scrolls across: the page is ${root.scrollWidth}px wide in a ${root.clientWidth}px window (${widest.join(', ')} reach past it)`,
    );
  }
  /** The box as seen: cut to each ancestor that scrolls (what is outside can be scrolled to) or clips (what is outside is lost). */
  const visible = new Map<El, Rect>();
  for (const box of boxes) {
    let rect = box.getBoundingClientRect();
    const style = win.getComputedStyle(box);
    // A cell that ends its text with an ellipsis and carries it whole in its title is readable.
    const ellipsisWithTitle = style.textOverflow === 'ellipsis' && box.title.trim() !== '';
    if (
      box.scrollWidth > box.clientWidth + 1 &&
      clips(style.overflowX) &&
      !ellipsisWithTitle &&
      box.childNodes.length > 0 &&
      !box.matches('input, textarea, select')
    ) {
      problems.push(
        `cut off: ${name(box)} shows ${box.clientWidth}px of ${box.scrollWidth}px of its text ("${(box.childNodes[0]?.textContent ?? '').trim().slice(0, 40)}")`,
      );
    }
    let reachable = true;
    for (let ancestor = parentOf(box); ancestor && ancestor !== win.document.body && ancestor !== root; ancestor = parentOf(ancestor)) {
      const ancestorStyle = win.getComputedStyle(ancestor);
      const bounds = ancestor.getBoundingClientRect();
      const cutX = clips(ancestorStyle.overflowX) && (rect.left < bounds.left - 1 || rect.right > bounds.right + 1);
      const cutY = clips(ancestorStyle.overflowY) && (rect.top < bounds.top - 1 || rect.bottom > bounds.bottom + 1);
      if ((cutX || cutY) && !(ancestor.getAttribute('role') === 'grid' || ancestor.matches('.grid-cell, .grid-row'))) {
        problems.push(`cut off: ${name(box)} reaches outside ${name(ancestor)}, which hides what overflows`);
        reachable = false;
        break;
      }
      if (
        scrolls(ancestorStyle.overflowX) ||
        scrolls(ancestorStyle.overflowY) ||
        clips(ancestorStyle.overflowX) ||
        clips(ancestorStyle.overflowY)
      ) {
        rect = {
          left: Math.max(rect.left, bounds.left),
          right: Math.min(rect.right, bounds.right),
          top: Math.max(rect.top, bounds.top),
          bottom: Math.min(rect.bottom, bounds.bottom),
          width: 0,
          height: 0,
        };
      }
    }
    if (!reachable) continue;
    const outside =
      (rect.right > win.innerWidth + 1 && !pageScrollsX) ||
      (rect.bottom > win.innerHeight + 1 && !pageScrollsY) ||
      rect.left < -1 ||
      rect.top < -1;
    if (outside && rect.right > rect.left && rect.bottom > rect.top)
      problems.push(`cut off: ${name(box)} lies outside the window, which does not scroll to it`);
    if (rect.right - rect.left > 0 && rect.bottom - rect.top > 0) visible.set(box, rect);
  }

  /** Boxes that cover one another (neither inside the other), by more than a sliver. */
  const shownBoxes = [...visible.entries()];
  const seen = new Set<string>();
  for (let i = 0; i < shownBoxes.length; i += 1) {
    const [a, ra] = shownBoxes[i];
    for (let j = i + 1; j < shownBoxes.length; j += 1) {
      const [b, rb] = shownBoxes[j];
      if (a.contains(b) || b.contains(a) || stuck(a) !== stuck(b) || sticky(a) || sticky(b)) continue;
      const shadowA = a.getRootNode().host;
      const shadowB = b.getRootNode().host;
      if ((shadowA && (shadowA === b || shadowA.contains(b))) || (shadowB && (shadowB === a || shadowB.contains(a)))) continue;
      const width = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const height = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (width > 2 && height > 2) {
        const line = `overlap: ${name(a)} and ${name(b)} cover ${Math.round(width)}×${Math.round(height)}px of each other`;
        if (!seen.has(line)) problems.push(line);
        seen.add(line);
      }
    }
  }
  // What the keyboard is on (a grid's active cell) is in sight: not scrolled away, not under a frozen column.
  const focused = win.document.activeElement;
  const activeId = focused?.getAttribute('aria-activedescendant');
  const active = activeId ? win.document.getElementById(activeId) : null;
  if (active) {
    const rect = active.getBoundingClientRect();
    const x = Math.min(rect.left + 4, rect.right - 1);
    const y = rect.top + rect.height / 2;
    const seen = win.document.elementFromPoint(x, y);
    if (!seen || !(seen === active || active.contains(seen)))
      problems.push(
        `hidden: the active cell ${name(active)} is covered at its start by ${seen ? name(seen) : 'nothing (outside the window)'}`,
      );
  }
  return problems;
}
