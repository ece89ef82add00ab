// The query panel against the emulator's 100,000-record view (app 201, view 6): the built viewQuery panel
// in headless Chromium, fed by the real ViewQuerySession over the real PortalClient and HTTP (the host
// stand-in of the webview tests), beside a bare fetch + JSON.parse of the same view in node. The emulator
// runs in its own process, as a portal would, and each figure is the median of a few runs with the view
// already generated (the emulator caches it, so the portal's own time is the same for both).
import { launchChromium, PanelServer } from '../webview/support/panelPage';
import { QueryHost } from '../webview/support/queryHost';
import { emulatorClient, startEmulatorProcess } from './support/emulatorProcess';
import { mb, median, ms, runBenchmark } from './support/report';

const APP = '201';
const VIEW = '6';
const RUNS = 5;
const TARGETS = { firstRowsFactor: 1.5, wholeMs: 2000, domRows: 200, heapBytes: 300 * 1024 * 1024 };

/** fetch + JSON.parse of the view in node: what any client has to spend at least. */
async function bareRead(baseUrl: string, token: string): Promise<{ ms: number; rows: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v1/app/${APP}/view/${VIEW}`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await response.text();
  const body = JSON.parse(text) as { data: unknown[] };
  return { ms: performance.now() - started, rows: body.data.length, bytes: text.length };
}

interface PageRun {
  firstRowsMs: number;
  wholeMs: number;
  rows: string;
}

runBenchmark('view query, 100,000 rows', ['webview'], async () => {
  const emulator = await startEmulatorProcess();
  const server = new PanelServer();
  const browser = await launchChromium();
  try {
    const baseUrl = emulator.info.base_url;
    const { client, token } = await emulatorClient(emulator);
    const warm = await bareRead(baseUrl, token); // the emulator generates and caches the view once
    await server.start();
    const host = await QueryHost.open(browser, server, client, {
      appId: APP,
      viewId: VIEW,
      viewName: 'All tickets',
      viewport: { width: 1280, height: 800 },
    });
    const page = host.panel.page;
    // Counts the grid's rows in the DOM whenever it changes, from the first run to the end of scrolling.
    await page.evaluate(() => {
      const win = globalThis as unknown as {
        __maxRows: number;
        MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
        document: { querySelector(selector: string): unknown; querySelectorAll(selector: string): { length: number } };
      };
      win.__maxRows = 0;
      const observer = new win.MutationObserver(() => {
        win.__maxRows = Math.max(win.__maxRows, win.document.querySelectorAll('.grid-body [role="row"]').length);
      });
      observer.observe(win.document.querySelector('.data-grid'), { childList: true, subtree: true });
    });

    const bare: number[] = [];
    const runs: PageRun[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      bare.push((await bareRead(baseUrl, token)).ms);
      await page.click('#run');
      await page.waitForFunction(() => performance.getEntriesByName('portal:all-rows').length > 0, undefined, {
        timeout: 60_000,
        polling: 50,
      });
      const marks = await page.evaluate(() => {
        const at = (name: string): number => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN;
        return {
          run: at('portal:run'),
          first: at('portal:first-rows'),
          all: at('portal:all-rows'),
          rows:
            (
              globalThis as unknown as { document: { querySelector(selector: string): { textContent: string } | null } }
            ).document.querySelector('#row-count')?.textContent ?? '',
        };
      });
      runs.push({ firstRowsMs: marks.first - marks.run, wholeMs: marks.all - marks.run, rows: marks.rows });
      await host.settled();
    }

    // Scroll through the whole result, and page with the keyboard.
    const scroller = page.locator('.data-grid');
    for (let step = 0; step <= 40; step += 1) {
      await scroller.evaluate((element, fraction) => {
        const target = element as unknown as { scrollTop: number; scrollHeight: number };
        target.scrollTop = fraction * target.scrollHeight;
      }, step / 40);
      await page.waitForTimeout(30);
    }
    await page.locator('.data-grid').focus();
    for (let press = 0; press < 20; press += 1) await page.keyboard.press('PageUp');
    const maxRows = await page.evaluate(() => (globalThis as unknown as { __maxRows: number }).__maxRows);

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
    const heapTotal = metrics.find((metric) => metric.name === 'JSHeapTotalSize')?.value ?? Number.NaN;

    const bareMs = median(bare);
    const firstMs = median(runs.map((run) => run.firstRowsMs));
    const wholeMs = median(runs.map((run) => run.wholeMs));
    await host.close();
    return {
      rows: [
        { measure: 'bare fetch + JSON.parse (node)', value: ms(bareMs) },
        {
          measure: 'Run to first rows painted',
          value: ms(firstMs),
          target: `≤ ${ms(TARGETS.firstRowsFactor * bareMs)} (1.5 × bare)`,
          met: firstMs <= TARGETS.firstRowsFactor * bareMs,
        },
        { measure: 'Run to whole result loaded', value: ms(wholeMs), target: `≤ ${ms(TARGETS.wholeMs)}`, met: wholeMs <= TARGETS.wholeMs },
        { measure: 'most grid rows in the DOM', value: String(maxRows), target: `≤ ${TARGETS.domRows}`, met: maxRows <= TARGETS.domRows },
        {
          measure: 'page JS heap used (total)',
          value: `${mb(heap)} (${mb(heapTotal)})`,
          target: `≤ ${mb(TARGETS.heapBytes)}`,
          met: heap <= TARGETS.heapBytes,
        },
      ],
      notes: [
        `${warm.rows.toLocaleString('en-US')} rows, ${(warm.bytes / 1024 / 1024).toFixed(1)} MB of JSON; median of ${RUNS} runs; the row count shown: "${runs[runs.length - 1]?.rows}".`,
        `runs: first rows ${runs.map((run) => ms(run.firstRowsMs)).join(', ')}; whole ${runs.map((run) => ms(run.wholeMs)).join(', ')}; bare ${bare.map(ms).join(', ')}.`,
      ],
    };
  } finally {
    await browser.close();
    await server.stop();
    await emulator.stop();
  }
});
