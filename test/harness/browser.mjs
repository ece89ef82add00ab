// Headless Chromium through playwright-core, with flags that keep it off every network but loopback
// (this machine refuses the rest) and a fresh profile each launch.
import { chromium } from 'playwright-core';

export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

export const VIEWPORT = { width: 1440, height: 900 };

export async function launchBrowser(executablePath) {
  return chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
}

/**
 * A page for the workbench with VS Code's smoke-test hooks defined before anything loads:
 * `codeAutomationLog(level, message)` receives the workbench's log (with the extension host's console),
 * `codeAutomationExit(code)` the exit code of the extension tests.
 */
export async function newWorkbenchPage(browser, { onLog, onExit }) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  if (onLog) await page.exposeFunction('codeAutomationLog', (level, message) => onLog(String(level), String(message)));
  if (onExit) await page.exposeFunction('codeAutomationExit', (code) => onExit(Number(code)));
  return page;
}
