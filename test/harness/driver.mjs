// The driver: a small HTTP server on 127.0.0.1 through which tests running in the extension host ask the
// browser side for what only it can do: screenshots, real key presses, the workbench's DOM and the DOM of
// webview panels. The protocol (POST /op/<name>, JSON in and out) is described in
// test/integration/README.md; the typed client is test/integration/support/driver.ts.
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A Playwright error on one line, with its call log (what it waited for and what it found): the first line
 * alone says only "Timeout exceeded", not whether the element was missing, hidden or covered.
 */
function callLog(message) {
  return (
    message
      // eslint-disable-next-line no-control-regex -- the call log's terminal colours
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(0, 12)
      .join(' / ')
  );
}

function slug(text) {
  return (
    String(text)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 80) || 'screenshot'
  );
}

/* global document -- readTreeItems runs in the workbench page */
/** Rows of the tree in the view titled `title` (a pane header, or the side bar's title for a lone view). */
function readTreeItems(title) {
  const wanted = title.trim().toLowerCase();
  const text = (element) => (element?.textContent ?? '').trim();
  const panes = [...document.querySelectorAll('.pane')];
  let pane = panes.find((candidate) => text(candidate.querySelector('.pane-header .title')).toLowerCase() === wanted);
  if (!pane) {
    for (const part of document.querySelectorAll('.part.sidebar, .part.auxiliarybar, .part.panel')) {
      const heading = text(part.querySelector('.composite.title .title-label h2, .composite.title .title-label'));
      const inPart = [...part.querySelectorAll('.pane')];
      if (heading.toLowerCase() === wanted && inPart.length === 1) pane = inPart[0];
    }
  }
  if (!pane) {
    const titles = panes.map((candidate) => text(candidate.querySelector('.pane-header .title'))).filter(Boolean);
    return { error: `No visible view titled "${title}". Visible views: ${titles.join(', ') || 'none'}.` };
  }
  const rows = [...pane.querySelectorAll('.monaco-list-row')].sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
  return {
    items: rows.map((row) => ({
      label: text(row.querySelector('.label-name')) || text(row.querySelector('.monaco-highlighted-label')) || text(row),
      description: text(row.querySelector('.label-description')),
      ariaLabel: row.getAttribute('aria-label') ?? '',
      level: Number(row.getAttribute('aria-level') ?? '1'),
      expanded: row.hasAttribute('aria-expanded') ? row.getAttribute('aria-expanded') === 'true' : undefined,
      selected: row.getAttribute('aria-selected') === 'true',
    })),
  };
}

/** The content frame of the visible webview whose title is `title`; waits for it to appear. */
export async function findWebview(page, title, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let seen = [];
  for (;;) {
    seen = [];
    for (const frame of page.frames()) {
      if (!frame.url().includes('/webview/')) continue;
      const inner = await frame.$('iframe#active-frame').catch(() => null);
      if (!inner) continue;
      const innerTitle = (await inner.getAttribute('title').catch(() => null)) ?? '';
      // A custom editor's webview has no title of its own: its page's <title> names it instead. A frame
      // replaced meanwhile (a panel restored after a reload loads twice) is looked at again next round.
      const content = await inner.contentFrame().catch(() => null);
      const pageTitle = innerTitle === '' || innerTitle === 'undefined' ? ((await content?.title().catch(() => '')) ?? '') : '';
      seen.push(pageTitle === '' ? innerTitle : `page: ${pageTitle}`);
      if (innerTitle !== title && pageTitle !== title) continue;
      const outer = await frame.frameElement().catch(() => null);
      if (outer && !(await outer.isVisible().catch(() => false))) continue;
      if (content) return content;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `No visible webview titled "${title}" within ${timeoutMs} ms. Webviews present: ${seen.map((t) => `"${t}"`).join(', ') || 'none'}.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts the driver for `page()` (the workbench page, once it exists). Screenshots go to `screenshotDir`
 * as <n>-<name>.png. Resolves with { url, close, screenshot }.
 */
export async function startDriver({ page: currentPage, screenshotDir, log = () => {} }) {
  mkdirSync(screenshotDir, { recursive: true });
  let shots = 0;
  const page = () => {
    const value = currentPage();
    if (!value) throw new Error('the workbench page is not open yet');
    return value;
  };
  const screenshot = async (name) => {
    shots += 1;
    const path = join(screenshotDir, `${String(shots).padStart(2, '0')}-${slug(name)}.png`);
    await page().screenshot({ path });
    log(`[driver] screenshot ${path}`);
    return path;
  };
  const webview = (body) => findWebview(page(), String(body.title), body.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  /**
   * Runs `action` in the webview titled body.title. VS Code may replace a webview's frames while a panel is
   * shown again or restored (its old frame detaches under us): then the webview is looked up afresh, until
   * the time limit.
   */
  const inWebview = async (body, action) => {
    const deadline = Date.now() + (body.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    for (;;) {
      try {
        return await action(await webview(body));
      } catch (error) {
        const detached = /detached|Execution context was destroyed|Target closed/i.test(String(error?.message ?? error));
        if (!detached || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const timeout = (body) => ({ timeout: body.timeoutMs ?? DEFAULT_TIMEOUT_MS });

  const ops = {
    screenshot: (body) => screenshot(body.name ?? 'screenshot'),
    press: async (body) => page().keyboard.press(String(body.keys)),
    type: async (body) => page().keyboard.type(String(body.text), { delay: 10 }),
    click: async (body) => page().locator(String(body.selector)).first().click(timeout(body)),
    texts: async (body) => page().locator(String(body.selector)).allTextContents(),
    evaluate: async (body) => page().evaluate(String(body.expression)),
    treeItems: async (body) => {
      const answer = await page().evaluate(readTreeItems, String(body.view));
      if (answer.error) throw new Error(answer.error);
      return answer.items;
    },
    'webview.text': (body) => inWebview(body, (frame) => frame.locator(String(body.selector)).first().textContent(timeout(body))),
    'webview.texts': (body) => inWebview(body, (frame) => frame.locator(String(body.selector)).allTextContents()),
    'webview.click': (body) => inWebview(body, (frame) => frame.locator(String(body.selector)).first().click(timeout(body))),
    'webview.fill': (body) =>
      inWebview(body, (frame) => frame.locator(String(body.selector)).first().fill(String(body.value), timeout(body))),
    'webview.press': (body) =>
      inWebview(body, (frame) => frame.locator(String(body.selector)).first().press(String(body.keys), timeout(body))),
    'webview.waitFor': (body) =>
      inWebview(body, (frame) =>
        frame
          .locator(String(body.selector))
          .first()
          .waitFor({ state: body.state ?? 'visible', ...timeout(body) }),
      ),
    'webview.evaluate': (body) => inWebview(body, (frame) => frame.evaluate(String(body.expression))),
  };

  const server = createServer((request, response) => {
    const reply = (status, value) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value ?? {}));
    };
    const name = new URL(request.url ?? '/', 'http://127.0.0.1').pathname.replace(/^\/op\//, '');
    if (request.method !== 'POST' || !Object.hasOwn(ops, name)) {
      reply(404, { error: `Unknown driver operation ${request.method} ${request.url}. Known: ${Object.keys(ops).join(', ')}.` });
      return;
    }
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      Promise.resolve()
        .then(() => ops[name](raw ? JSON.parse(raw) : {}))
        .then((result) => reply(200, { result: result ?? null }))
        .catch((error) => reply(500, { error: `${name}: ${error instanceof Error ? callLog(error.message) : String(error)}` }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    screenshot,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
