// The frame in which a panel page first shows something, on the page's own clock: an observer set up in the
// page before the host starts, noting the time at the frame after `selector` first matches. The bench's
// process is busy reading the rest of the view meanwhile, so asking the page (or waiting for a selector
// through Playwright) would count that process's queue too, and more for a page that needs more round trips.
import type { Page } from 'playwright-core';

interface PaintGlobals {
  document: { body: unknown; querySelector(selector: string): unknown };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void; disconnect(): void };
  requestAnimationFrame(callback: () => void): number;
  __firstPaint?: Promise<number>;
}

/** Starts watching for `selector`; call before anything is sent to the page. */
export async function watchFirstPaint(page: Page, selector: string): Promise<void> {
  await page.evaluate((wanted) => {
    const win = globalThis as unknown as PaintGlobals;
    win.__firstPaint = new Promise<number>((resolve) => {
      const painted = (): void => {
        win.requestAnimationFrame(() => setTimeout(() => resolve(Date.now()), 0));
      };
      if (win.document.querySelector(wanted)) return painted();
      const observer = new win.MutationObserver(() => {
        if (!win.document.querySelector(wanted)) return;
        observer.disconnect();
        painted();
      });
      observer.observe(win.document.body, { childList: true, subtree: true });
    });
  }, selector);
}

/** The page's clock (Date.now) at the frame after the watched selector first matched; waits for it. */
export async function firstPaintAt(page: Page, timeoutMs = 30_000): Promise<number> {
  return page.evaluate(async (timeout) => {
    const win = globalThis as unknown as PaintGlobals;
    if (!win.__firstPaint) throw new Error('watchFirstPaint was not called for this page.');
    const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Nothing was painted in time.')), timeout));
    return Promise.race([win.__firstPaint, late]);
  }, timeoutMs);
}
