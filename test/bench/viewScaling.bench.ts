// How a view's size scales, 1,000 to 1,000,000 rows (issue 19): the query panel in headless Chromium fed by
// the real ViewQuerySession over the real PortalClient and HTTP (the host stand-in of the webview tests;
// this process plays the extension host), against the emulator in its own process, beside a bare fetch +
// JSON.parse of the same URL in a child node process, in the same run. Per size: first rows painted and
// whole result (page marks from the Run click), the host's memory for the kept result (heap + array
// buffers after a forced gc, against the body's size), the panel's JS heap, each memory figure beside what
// the bare read's parsed answer holds, and the longest main-thread task in the panel while rows arrive
// (Long Tasks API). At 100,000 and 1,000,000 rows, the view as the tree keeps it with Go to Record's index
// (their memory together) and at 100,000 Go to Record's keystrokes (support/viewScalingParts.ts); per size
// the editable grid's first rows (support/gridFirstRows.ts, the read then cancelled) and its host memory
// after a whole read; at 1,000,000 the
// export to CSV (memory sampled with gc forced: the second half must hold no more than the
// first).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PortalClient } from '../../src/api/client';
import type { RowStore } from '../../src/api/rowStore';
import type { GridColumn } from '../../src/shared/protocol';
import { clientCredentials } from '../../src/api/oauth';
import { writeLines } from '../../src/webviews/viewQuery/exportFile';
import { csvLines } from '../../src/webviews/viewQuery/exportRows';
import { launchChromium, PanelServer } from '../webview/support/panelPage';
import { QueryHost } from '../webview/support/queryHost';
import { repoRoot } from '../webview/support/repo';
import { mb, median, ms, runBenchmark, type BenchRow } from './support/report';
import { startTracing } from './support/trace';
import { gridFirstRows, gridHostMemory } from './support/gridFirstRows';
import { bareRead, goToRecord, held, type BareRead } from './support/viewScalingParts';

const APP = '201';
const VIEW = '6';
/** BENCH_SCALING_SIZES=100000 (comma-separated) measures only those sizes, e.g. while profiling. */
/** BENCH_TRACE=1 records a performance trace of the panel's first run at each size (support/trace.ts). */
const TRACE = process.env.BENCH_TRACE === '1';
const ONLY = process.env.BENCH_SCALING_SIZES?.split(',').map(Number);
const SIZES: ReadonlyArray<{ rows: number; runs: number }> = [
  { rows: 1_000, runs: 3 },
  { rows: 10_000, runs: 3 },
  { rows: 100_000, runs: 2 },
  { rows: 1_000_000, runs: 1 },
].filter((size) => !ONLY || ONLY.includes(size.rows));
const TARGETS = { firstRowsFactor: 0.25, wholeFactor: 1.2, memoryFactor: 2, longTaskMs: 100, keystrokeMs: 50 };

interface EmulatorProcess {
  info: { base_url: string; client_id: string; client_secret: string };
  stop(): Promise<void>;
}

const count = (n: number): string => n.toLocaleString('en-US');

interface PageRun {
  firstMs: number;
  wholeMs: number;
  longestTaskMs: number;
}

runBenchmark('view scaling, 1,000 to 1,000,000 rows', ['webview'], async () => {
  const harness = (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'emulator.mjs')).href)) as {
    startEmulator(options: { args?: string[] }): Promise<EmulatorProcess>;
  };
  const emulator = await harness.startEmulator({ args: ['--quiet', '--big-view-records', '1000'] });
  const server = new PanelServer();
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  try {
    const { base_url: baseUrl, client_id: clientId, client_secret: clientSecret } = emulator.info;
    const token = (await clientCredentials({ baseUrl, clientId, clientSecret })).accessToken;
    const client = new PortalClient({ baseUrl, tokens: { accessToken: async () => token, renewAfterUnauthorized: async () => undefined } });
    const url = `${baseUrl}/api/v1/app/${APP}/view/${VIEW}`;
    await server.start();
    for (const size of SIZES) {
      const config = await fetch(`${baseUrl}/_emulator/config`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ bigViewRecords: size.rows }),
      });
      if (!config.ok) throw new Error(`emulator config: ${config.status}`);
      const host = await QueryHost.open(browser, server, client, {
        appId: APP,
        viewId: VIEW,
        viewName: 'All tickets',
        viewport: { width: 1280, height: 800 },
      });
      const page = host.panel.page;
      await page.evaluate(() => {
        const win = globalThis as unknown as {
          __longest: number;
          PerformanceObserver: new (callback: (list: { getEntries(): Array<{ duration: number }> }) => void) => {
            observe(options: object): void;
          };
        };
        win.__longest = 0;
        new win.PerformanceObserver((list) => {
          for (const entry of list.getEntries()) win.__longest = Math.max(win.__longest, entry.duration);
        }).observe({ type: 'longtask', buffered: false });
      });
      const bare: BareRead[] = [];
      const runs: PageRun[] = [];
      let bodyBytes = 0;
      let hostBytes = 0;
      for (let run = 0; run < size.runs; run += 1) {
        const read = await bareRead(url, token);
        bare.push(read);
        bodyBytes = read.bytes;
        host.session.dispose(); // the previous run's rows go back before the next is measured
        const before = held();
        await page.evaluate(() => ((globalThis as unknown as { __longest: number }).__longest = 0));
        const tracing = TRACE && run === 0 ? await startTracing(page) : undefined;
        await page.click('#run');
        await page.waitForFunction(() => performance.getEntriesByName('portal:all-rows').length > 0, undefined, {
          timeout: 180_000,
          polling: 100,
        });
        if (tracing)
          notes.push(
            `${count(size.rows)} rows, longest panel tasks in the trace: ${(await tracing.stop(join(repoRoot(), 'test-results', 'bench', `viewScaling-${size.rows}.trace.json`))).join('; ')}.`,
          );
        const marks = await page.evaluate(() => {
          const at = (name: string): number => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN;
          return {
            run: at('portal:run'),
            first: at('portal:first-rows'),
            all: at('portal:all-rows'),
            longest: (globalThis as unknown as { __longest: number }).__longest,
          };
        });
        await host.settled();
        hostBytes = held() - before;
        runs.push({ firstMs: marks.first - marks.run, wholeMs: marks.all - marks.run, longestTaskMs: marks.longest });
      }
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN;

      const label = `${count(size.rows)} rows`;
      const bareMs = median(bare.map((read) => read.ms));
      const bareHeld = mb(median(bare.map((read) => read.held)));
      const firstMs = median(runs.map((run) => run.firstMs));
      const wholeMs = median(runs.map((run) => run.wholeMs));
      const longest = Math.max(...runs.map((run) => run.longestTaskMs));
      const isMillion = size.rows === 1_000_000;
      rows.push(
        { measure: `${label}: bare fetch + JSON.parse (node)`, value: ms(bareMs), target: `${(bodyBytes / 1e6).toFixed(1)} MB of JSON` },
        {
          measure: `${label}: first rows painted`,
          value: `${ms(firstMs)} (${(firstMs / bareMs).toFixed(2)} × bare)`,
          ...(isMillion ? { target: `≤ ${TARGETS.firstRowsFactor} × bare`, met: firstMs <= TARGETS.firstRowsFactor * bareMs } : {}),
        },
        {
          measure: `${label}: whole result`,
          value: `${ms(wholeMs)} (${(wholeMs / bareMs).toFixed(2)} × bare)`,
          target: `≤ ${TARGETS.wholeFactor} × bare`,
          met: wholeMs <= TARGETS.wholeFactor * bareMs,
        },
        {
          measure: `${label}: host memory for the rows`,
          value: `${mb(hostBytes)} (${(hostBytes / bodyBytes).toFixed(2)} × body; bare ${bareHeld})`,
          target: `≤ ${TARGETS.memoryFactor} × body`,
          met: hostBytes <= TARGETS.memoryFactor * bodyBytes,
        },
        { measure: `${label}: panel JS heap`, value: `${mb(heap)} (bare ${bareHeld})` },
        {
          measure: `${label}: longest panel task while loading`,
          value: ms(longest),
          target: `≤ ${TARGETS.longTaskMs} ms`,
          met: longest <= TARGETS.longTaskMs,
        },
      );
      notes.push(
        `${label}: runs first ${runs.map((run) => ms(run.firstMs)).join(', ')}; whole ${runs.map((run) => ms(run.wholeMs)).join(', ')}; bare ${bare.map((read) => ms(read.ms)).join(', ')}.`,
      );

      const result = host.session.result;
      if (isMillion && result) rows.push(...(await exportCsv(result, folder)));
      await host.close();
      host.session.dispose();
      const gridRuns: number[] = [];
      for (let run = 0; run < size.runs; run += 1) gridRuns.push(await gridFirstRows(browser, server, client, APP, VIEW));
      const gridFirst = median(gridRuns);
      rows.push({
        measure: `${label}: editable grid, first rows painted`,
        value: `${ms(gridFirst)} (${(gridFirst / bareMs).toFixed(2)} × bare)`,
        ...(isMillion ? { target: `≤ ${TARGETS.firstRowsFactor} × bare`, met: gridFirst <= TARGETS.firstRowsFactor * bareMs } : {}),
      });
      const grid = await gridHostMemory(client, APP, VIEW, held);
      if (grid.rows !== size.rows) notes.push(`${label}: the editable grid read ${count(grid.rows)} rows.`);
      rows.push({
        measure: `${label}: editable grid, host memory for the rows`,
        value: `${mb(grid.bytes)} (${(grid.bytes / bodyBytes).toFixed(2)} × body; bare ${bareHeld})`,
        target: `≤ ${TARGETS.memoryFactor} × body`,
        met: grid.bytes <= TARGETS.memoryFactor * bodyBytes,
      });
      if (size.rows >= 100_000) {
        const goTo = {
          client,
          appId: APP,
          viewId: VIEW,
          label,
          bodyBytes,
          bare: bare[bare.length - 1],
          memoryFactor: TARGETS.memoryFactor,
          notes,
        };
        rows.push(...(await goToRecord(size.rows === 100_000 ? { ...goTo, keystrokeMs: TARGETS.keystrokeMs } : goTo)));
      }
    }
    return { rows, notes };
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await browser.close();
    await server.stop();
    await emulator.stop();
  }
});

/** Export of the 1,000,000 rows to CSV: time, file size, and memory in the first and second half. */
async function exportCsv(result: { columns: GridColumn[]; rows: RowStore }, folder: string): Promise<BenchRow[]> {
  const path = join(folder, 'export.csv');
  const before = held();
  const peaks = [0, 0];
  const started = performance.now();
  const total = result.rows.length;
  await writeLines(path, csvLines(result.columns, result.rows), {
    every: 50_000,
    onLines: (written) => {
      const half = written <= total / 2 ? 0 : 1;
      peaks[half] = Math.max(peaks[half], held() - before);
    },
  });
  const elapsed = performance.now() - started;
  const size = statSync(path).size;
  return [
    { measure: `export CSV, ${count(total)} rows`, value: `${ms(elapsed)}, ${mb(size)} file` },
    {
      measure: 'export CSV: memory, 1st half → 2nd half',
      value: `${mb(peaks[0])} → ${mb(peaks[1])}`,
      target: 'flat (2nd ≤ 1st + 8 MB)',
      met: peaks[1] <= peaks[0] + 8 * 1024 * 1024,
    },
  ];
}
