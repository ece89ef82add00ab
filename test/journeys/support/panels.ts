// The content frame of a panel (webview) as Playwright sees it: VS Code puts each panel in an iframe whose
// inner iframe carries the panel's title (test/harness/driver.mjs finds it; reused here).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { page, ROOT } from './world';

interface Driver {
  findWebview(page: Page, title: string, timeoutMs: number): Promise<Frame>;
}

export async function panelFrame(title: string, timeoutMs = 30_000): Promise<Frame> {
  const driver = (await import(pathToFileURL(join(ROOT, 'test', 'harness', 'driver.mjs')).href)) as Driver;
  return driver.findWebview(page(), title, timeoutMs);
}
