// When a grid (or a board) takes the rest of a view's rows: its page is given the first rows before the
// host parses the others, so that parsing them (0.5 s at 100,000 rows next door, more on a busy machine)
// does not hold up the page's first paint. The rest waits until a page has shown the first rows, bounded:
// a document opened with no page (from a backup) takes the rest after REST_AFTER_MS; a document whose page
// is being made waits longer for it, since VS Code may take seconds to start a webview (in a browser
// profile that never showed one it registers its webview worker first: 2-2.5 s here), and a rest parsed
// meanwhile delays that page's first rows by as long again.
import { systemClock, type Clock } from '../../records/clock';

export const REST_AFTER_MS = 2_000;
export const REST_AFTER_PAGE_MS = 15_000;

export class RestOfRead {
  private rowsShown = false;
  private pageComing = false;
  private waiting: { readonly resolve: () => void; timer: unknown } | undefined;

  constructor(private readonly clock: Clock = systemClock) {}

  /** A new read's first rows: no page has been given them yet. */
  firstRowsCame(): void {
    this.rowsShown = false;
  }

  /** A page is being made for the document: the rest waits for it, up to REST_AFTER_PAGE_MS from now. */
  pageOpened(): void {
    this.pageComing = true;
    if (this.waiting) this.arm(this.waiting, REST_AFTER_PAGE_MS);
  }

  /** A page has been given the rows read so far: the rest comes now. */
  shown(): void {
    this.rowsShown = true;
    this.end();
  }

  /** Resolves once a page has shown the first rows, or when the bound runs out. */
  wait(): Promise<void> {
    if (this.rowsShown) return Promise.resolve();
    this.end(); // a read given up for a newer one: its wait ends now
    return new Promise<void>((resolve) => {
      const waiting = { resolve, timer: undefined as unknown };
      this.waiting = waiting;
      this.arm(waiting, this.pageComing ? REST_AFTER_PAGE_MS : REST_AFTER_MS);
    });
  }

  /** Ends the wait under way (the document goes, or a newer read starts). */
  end(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!waiting) return;
    this.clock.clearTimeout(waiting.timer);
    waiting.resolve();
  }

  private arm(waiting: { timer: unknown }, ms: number): void {
    this.clock.clearTimeout(waiting.timer);
    waiting.timer = this.clock.setTimeout(() => {
      if (this.waiting === waiting) this.end();
    }, ms);
  }
}
