// How a view's size scales, 1,000 to 1,000,000 rows (issue 19): the query panel in headless Chromium fed by
// the real ViewQuerySession over the real PortalClient and HTTP (the host stand-in of the webview tests;
// this process plays the extension host), against the emulator in its own process, beside a bare fetch +
// JSON.parse of the same URL in a child node process, in the same run. Per size: first rows painted and
// whole result (page marks from the Run click), the host's memory for the kept result (heap + array
// buffers after a forced gc, against the body's size), the panel's JS heap, and the longest main-thread
// task in the panel while rows arrive (Long Tasks API). Then, at 1,000,000 rows, the export to CSV
// (memory sampled with gc forced: the second half must hold no more than the first), and at 100,000 rows
// Go to Record's search, keystroke by keystroke.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PortalClient } from '../../src/api/client';
import type { RowStore } from '../../src/api/rowStore';
import type { Column } from '../../src/api/types';
import type { GridColumn } from '../../src/shared/protocol';
import { clientCredentials } from '../../src/api/oauth';
import { RecordFinder, type RecordPickItem, type RecordPickSink } from '../../src/catalog/recordFinder';
import { RecordIndex } from '../../src/catalog/recordIndex';
import { recordTitle } from '../../src/catalog/titleField';
import { writeLines } from '../../src/webviews/viewQuery/exportFile';
import { csvLines } from '../../src/webviews/viewQuery/exportRows';
import { launchChromium, PanelServer } from '../webview/support/panelPage';
import { QueryHost } from '../webview/support/queryHost';
import { repoRoot } from '../webview/support/repo';
import { mb, median, ms, runBenchmark, type BenchRow } from './support/report';
import { startTracing } from './support/trace';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

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

/** fetch + JSON.parse of the view in a fresh node process: what any client spends at least. */
function bareRead(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const script = `const t=performance.now();fetch(${JSON.stringify(url)},{headers:{Authorization:${JSON.stringify(`Bearer ${token}`)}}}).then(r=>r.text()).then(x=>{const b=JSON.parse(x);if(!Array.isArray(b.data))process.exit(2);process.stdout.write(JSON.stringify({ms:performance.now()-t,bytes:Buffer.byteLength(x)}));});`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=6144', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as { ms: number; bytes: number }) : reject(new Error(`bare read exited ${code}`))));
  });
}

function held(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const count = (n: number): string => n.toLocaleString('en-US');

interface PageRun {
  firstMs: number;
  wholeMs: number;
  longestTaskMs: number;
}

runBenchmark('view scaling, 1,000 to 1,000,000 rows', ['webview'], async () => {
  const harness = (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'emulator.mjs')).href)) as { startEmulator(options: { args?: string[] }): Promise<EmulatorProcess> };
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
      const config = await fetch(`${baseUrl}/_emulator/config`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ bigViewRecords: size.rows }) });
      if (!config.ok) throw new Error(`emulator config: ${config.status}`);
      const host = await QueryHost.open(browser, server, client, { appId: APP, viewId: VIEW, viewName: 'All tickets', viewport: { width: 1280, height: 800 } });
      const page = host.panel.page;
      await page.evaluate(() => {
        const win = globalThis as unknown as { __longest: number; PerformanceObserver: new (callback: (list: { getEntries(): Array<{ duration: number }> }) => void) => { observe(options: object): void } };
        win.__longest = 0;
        new win.PerformanceObserver((list) => {
          for (const entry of list.getEntries()) win.__longest = Math.max(win.__longest, entry.duration);
        }).observe({ type: 'longtask', buffered: false });
      });
      const bare: number[] = [];
      const runs: PageRun[] = [];
      let bodyBytes = 0;
      let hostBytes = 0;
      for (let run = 0; run < size.runs; run += 1) {
        const read = await bareRead(url, token);
        bare.push(read.ms);
        bodyBytes = read.bytes;
        host.session.dispose(); // the previous run's rows go back before the next is measured
        const before = held();
        await page.evaluate(() => ((globalThis as unknown as { __longest: number }).__longest = 0));
        const tracing = TRACE && run === 0 ? await startTracing(page) : undefined;
        await page.click('#run');
        await page.waitForFunction(() => performance.getEntriesByName('portal:all-rows').length > 0, undefined, { timeout: 180_000, polling: 100 });
        if (tracing) notes.push(`${count(size.rows)} rows, longest panel tasks in the trace: ${(await tracing.stop(join(repoRoot(), 'test-results', 'bench', `viewScaling-${size.rows}.trace.json`))).join('; ')}.`);
        const marks = await page.evaluate(() => {
          const at = (name: string): number => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN;
          return { run: at('portal:run'), first: at('portal:first-rows'), all: at('portal:all-rows'), longest: (globalThis as unknown as { __longest: number }).__longest };
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
      const bareMs = median(bare);
      const firstMs = median(runs.map((run) => run.firstMs));
      const wholeMs = median(runs.map((run) => run.wholeMs));
      const longest = Math.max(...runs.map((run) => run.longestTaskMs));
      const isMillion = size.rows === 1_000_000;
      rows.push(
        { measure: `${label}: bare fetch + JSON.parse (node)`, value: ms(bareMs), target: `${(bodyBytes / 1e6).toFixed(1)} MB of JSON` },
        { measure: `${label}: first rows painted`, value: `${ms(firstMs)} (${(firstMs / bareMs).toFixed(2)} × bare)`, ...(isMillion ? { target: `≤ ${TARGETS.firstRowsFactor} × bare`, met: firstMs <= TARGETS.firstRowsFactor * bareMs } : {}) },
        { measure: `${label}: whole result`, value: `${ms(wholeMs)} (${(wholeMs / bareMs).toFixed(2)} × bare)`, target: `≤ ${TARGETS.wholeFactor} × bare`, met: wholeMs <= TARGETS.wholeFactor * bareMs },
        { measure: `${label}: host memory for the rows`, value: `${mb(hostBytes)} (${(hostBytes / bodyBytes).toFixed(2)} × body)`, target: `≤ ${TARGETS.memoryFactor} × body`, met: hostBytes <= TARGETS.memoryFactor * bodyBytes },
        { measure: `${label}: panel JS heap`, value: mb(heap) },
        { measure: `${label}: longest panel task while loading`, value: ms(longest), target: `≤ ${TARGETS.longTaskMs} ms`, met: longest <= TARGETS.longTaskMs },
      );
      notes.push(`${label}: runs first ${runs.map((run) => ms(run.firstMs)).join(', ')}; whole ${runs.map((run) => ms(run.wholeMs)).join(', ')}; bare ${bare.map(ms).join(', ')}.`);

      const result = host.session.result;
      if (size.rows === 100_000 && result) rows.push(...(await goToRecord(result.rows, result.columns.map((column) => column.key), (await client.listColumns(APP)).find((column) => column.field_id_in_data === 'f31'), notes)));
      if (isMillion && result) rows.push(...(await exportCsv(result, folder)));
      await host.close();
      host.session.dispose();
    }
    return { rows, notes };
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await browser.close();
    await server.stop();
    await emulator.stop();
  }
});

/**
 * Go to Record at 100,000 rows: building the index, then each keystroke of a few searches through the path
 * the quick pick's onDidChangeValue takes (RecordFinder: time-boxed slices, narrowing, the items built
 * from the rows and set on the pick only when they change), to the items of that keystroke set. Setting
 * them is timed as the extension host pays for it: the items serialized to JSON for the workbench.
 */
async function goToRecord(store: RowStore, keys: readonly string[], title: Column | undefined, notes: string[]): Promise<BenchRow[]> {
  const started = performance.now();
  const index = new RecordIndex(store, { titleKey: 'f31', textKeys: keys.filter((key) => ['f31', 'f33', 'f40', 'f41'].includes(key)) });
  index.extend();
  const buildMs = performance.now() - started;
  let sent = 0;
  const pick: RecordPickSink = {
    busy: false,
    get items() {
      return [];
    },
    set items(items: readonly RecordPickItem[]) {
      sent += JSON.stringify(items).length; // what the extension host sends the workbench
    },
  };
  let shown = '';
  const finder = new RecordFinder(index, store, title, pick, { limit: 100 }, (query) => (shown = query));
  const typed = ['laptop lyon', '54321', 'tyrell', 'user4999@customers', 'zzzz nothing', 'berlin printer'];
  const times: number[] = [];
  const slowest: Array<{ query: string; ms: number }> = [];
  for (const text of typed) {
    for (let length = 1; length <= text.length; length += 1) {
      const query = text.slice(0, length);
      const at = performance.now();
      finder.find(query);
      while (shown !== query) await new Promise((resolve) => setImmediate(resolve));
      times.push(performance.now() - at);
      slowest.push({ query, ms: times[times.length - 1] });
    }
    finder.find(''); // the user clears the box before the next search
    while (shown !== '') await new Promise((resolve) => setImmediate(resolve));
  }
  const worst = Math.max(...times);
  slowest.sort((a, b) => b.ms - a.ms);
  notes.push(`Go to Record: slowest keystrokes ${slowest.slice(0, 4).map((entry) => `"${entry.query}" ${entry.ms.toFixed(1)} ms`).join(', ')}.`);
  // The path before RecordFinder, for comparison in the same run: a whole search and every item built and
  // sent again at each keystroke.
  let before = 0;
  for (const text of typed) {
    for (let length = 1; length <= text.length; length += 1) {
      const at = performance.now();
      const items = index.search(text.slice(0, length), 100).map((row) => {
        const record = store.row(row);
        return { label: recordTitle(record.id ?? '', record.values, title), description: `#${record.id ?? ''}`, alwaysShow: true, recordId: record.id ?? '' };
      });
      JSON.stringify(items);
      before = Math.max(before, performance.now() - at);
    }
  }
  return [
    { measure: 'Go to Record, 100,000 rows: index built', value: ms(buildMs) },
    { measure: 'Go to Record, 100,000 rows: keystroke to its items set, slowest', value: `${worst.toFixed(1)} ms (median ${median(times).toFixed(1)})`, target: `≤ ${TARGETS.keystrokeMs} ms`, met: worst <= TARGETS.keystrokeMs },
    { measure: 'Go to Record, 100,000 rows: longest slice of work', value: `${finder.longestSliceMs.toFixed(1)} ms`, target: `${times.length} keystrokes, ${(sent / 1e6).toFixed(1)} MB of items` },
    { measure: 'Go to Record, 100,000 rows: whole search per keystroke (before)', value: `${before.toFixed(1)} ms`, target: 'slowest, same keystrokes' },
  ];
}

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
    { measure: 'export CSV: memory, 1st half → 2nd half', value: `${mb(peaks[0])} → ${mb(peaks[1])}`, target: 'flat (2nd ≤ 1st + 8 MB)', met: peaks[1] <= peaks[0] + 8 * 1024 * 1024 },
  ];
}
