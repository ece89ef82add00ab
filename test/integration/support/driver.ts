// The typed client of the harness's driver (test/harness/driver.mjs): what a test in the extension host
// asks of the browser that shows the workbench. The harness hands its address over in PORTAL_DRIVER_URL.
// Under desktop VS Code (test:electron) there is no browser to drive: screenshots are skipped with a log
// line, and every other call throws; tests that need the browser carry BROWSER_TAG in their title and are
// left out there (test/integration/index.ts).

/** Put in the title of a test (or suite) that needs the browser driver. */
export const BROWSER_TAG = '[browser]';

/** A row of a tree as the workbench shows it. */
export interface TreeItemRow {
  label: string;
  description: string;
  ariaLabel: string;
  /** 1 for top-level rows. */
  level: number;
  /** undefined for a leaf. */
  expanded: boolean | undefined;
  selected: boolean;
}

export interface WaitOptions {
  /** How long to wait for the element or webview to appear; 10 000 ms unless given. */
  timeoutMs?: number;
}

export class DriverUnavailableError extends Error {}

/** The DOM of one webview panel, found by its title. Selectors are CSS (or Playwright selectors). */
export class WebviewDom {
  constructor(
    private readonly call: Driver['call'],
    readonly title: string,
  ) {}

  /** textContent of the first element matching `selector`, once it exists. */
  async text(selector: string, options: WaitOptions = {}): Promise<string> {
    return ((await this.call('webview.text', { title: this.title, selector, ...options })) as string | null) ?? '';
  }
  /** textContent of every element matching `selector` now (possibly none). */
  async texts(selector: string, options: WaitOptions = {}): Promise<string[]> {
    return (await this.call('webview.texts', { title: this.title, selector, ...options })) as string[];
  }
  /** A real mouse click on the first match. */
  async click(selector: string, options: WaitOptions = {}): Promise<void> {
    await this.call('webview.click', { title: this.title, selector, ...options });
  }
  /** Focuses an input, textarea or contenteditable and replaces its value, firing input events. */
  async fill(selector: string, value: string, options: WaitOptions = {}): Promise<void> {
    await this.call('webview.fill', { title: this.title, selector, value, ...options });
  }
  /** Focuses the first match and presses keys there, e.g. "Enter" or "Control+A". */
  async press(selector: string, keys: string, options: WaitOptions = {}): Promise<void> {
    await this.call('webview.press', { title: this.title, selector, keys, ...options });
  }
  /** Waits until the first match is in `state` (visible unless given). */
  async waitFor(selector: string, options: WaitOptions & { state?: 'attached' | 'detached' | 'visible' | 'hidden' } = {}): Promise<void> {
    await this.call('webview.waitFor', { title: this.title, selector, ...options });
  }
  /** Evaluates a JavaScript expression in the webview's document; the result must be JSON. */
  async evaluate<T>(expression: string, options: WaitOptions = {}): Promise<T> {
    return (await this.call('webview.evaluate', { title: this.title, expression, ...options })) as T;
  }
}

export class Driver {
  private readonly url: string | undefined = process.env.PORTAL_DRIVER_URL;

  /** True in the code-server harness (npm run test:integration); false under desktop VS Code. */
  get available(): boolean {
    return this.url !== undefined && this.url !== '';
  }

  /**
   * A screenshot of the whole workbench, now, saved as test-results/screenshots/<n>-<name>.png.
   * Resolves with the file's path; undefined (and a log line) when there is no browser.
   */
  async screenshot(name: string): Promise<string | undefined> {
    if (!this.available) {
      console.log(`[driver] screenshot "${name}" skipped: no browser driver in this VS Code`);
      return undefined;
    }
    return (await this.call('screenshot', { name })) as string;
  }

  /** Real key presses in the workbench, to whatever has focus: "Control+S", "Escape", "Shift+Tab". */
  async press(keys: string): Promise<void> {
    await this.call('press', { keys });
  }

  /** Types text key by key into whatever has focus. */
  async type(text: string): Promise<void> {
    await this.call('type', { text });
  }

  /** A real mouse click on the first element of the workbench matching `selector`. */
  async click(selector: string, options: WaitOptions = {}): Promise<void> {
    await this.call('click', { selector, ...options });
  }

  /** True when the element that has the keyboard focus is inside an element matching `selector`. */
  async focusedWithin(selector: string): Promise<boolean> {
    return this.evaluate<boolean>(`Boolean(document.activeElement && document.activeElement.closest(${JSON.stringify(selector)}))`);
  }

  /** textContent of every element of the workbench matching `selector` now (possibly none). */
  async texts(selector: string): Promise<string[]> {
    return (await this.call('texts', { selector })) as string[];
  }

  /** Evaluates a JavaScript expression in the workbench page; the result must be JSON. */
  async evaluate<T>(expression: string): Promise<T> {
    return (await this.call('evaluate', { expression })) as T;
  }

  /**
   * The rendered rows of the tree in the view titled `view` (its header, as in the side bar; case does not
   * matter). Only rows the tree has rendered (those scrolled into view) are there.
   */
  async treeItems(view: string): Promise<TreeItemRow[]> {
    return (await this.call('treeItems', { view })) as TreeItemRow[];
  }

  /** The DOM of the webview panel (or view) titled `title`. */
  webview(title: string): WebviewDom {
    return new WebviewDom((operation, body) => this.call(operation, body), title);
  }

  private async call(operation: string, body: object): Promise<unknown> {
    if (!this.available) {
      throw new DriverUnavailableError(
        `driver.${operation} needs the browser driver of the code-server harness; tag the test ${BROWSER_TAG}.`,
      );
    }
    const response = await fetch(`${this.url}/op/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { result?: unknown; error?: string };
    if (!response.ok) throw new Error(`driver: ${answer.error ?? `HTTP ${response.status}`}`);
    return answer.result;
  }
}

/** The one driver of this run. */
export const driver = new Driver();
