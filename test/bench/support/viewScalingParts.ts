// Parts of viewScaling.bench.ts: the bare read it compares with, the host's memory, and Go to Record over a
// view as the tree keeps it (the tree's rows and the search index together, against the body's size; then
// each keystroke of a few searches through the path the quick pick takes).
import { spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { PortalClient } from '../../../src/api/client';
import type { Column } from '../../../src/api/types';
import { RecordFinder, type RecordPickItem, type RecordPickSink } from '../../../src/catalog/recordFinder';
import { RecordIndex } from '../../../src/catalog/recordIndex';
import { recordTitle } from '../../../src/catalog/titleField';
import { mb, median, ms, type BenchRow } from './report';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Memory this process holds now: JS heap plus array buffers (where row bytes live), after a forced gc. */
export function held(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

export interface BareRead {
  ms: number;
  bytes: number;
  /** What the parsed answer holds in the bare process (heap + array buffers after gc, the text dropped). */
  held: number;
}

/** fetch + JSON.parse of the view in a fresh node process: what any client spends at least. */
export function bareRead(url: string, token: string): Promise<BareRead> {
  const script = [
    'const held=()=>{gc();gc();const u=process.memoryUsage();return u.heapUsed+u.arrayBuffers;};',
    'const base=held();const t=performance.now();',
    `fetch(${JSON.stringify(url)},{headers:{Authorization:${JSON.stringify(`Bearer ${token}`)}}}).then(r=>r.text()).then(x=>{`,
    'let text=x;const b=JSON.parse(text);const ms=performance.now()-t;const bytes=Buffer.byteLength(text);text=undefined;x=undefined;',
    'if(!Array.isArray(b.data))process.exit(2);const kept=held()-base;process.stdout.write(JSON.stringify({ms,bytes,held:kept,rows:b.data.length}));});',
  ].join('');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=6144', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as BareRead) : reject(new Error(`bare read exited ${code}`))));
  });
}

export interface GoToRecordSetup {
  client: PortalClient;
  appId: string;
  viewId: string;
  label: string;
  bodyBytes: number;
  bare: BareRead;
  memoryFactor: number;
  keystrokeMs?: number;
  notes: string[];
}

/**
 * The view read as the tree reads it (one RowStore) and Go to Record's index built over it: their memory
 * together, beside the body and the bare read's; then, when `keystrokeMs` is given, each keystroke of a few
 * searches through the path the quick pick's onDidChangeValue takes (RecordFinder: time-boxed slices,
 * narrowing, items built from the rows and set only when they change), to the items of that keystroke set,
 * serialized as the extension host sends them to the workbench.
 */
export async function goToRecord(setup: GoToRecordSetup): Promise<BenchRow[]> {
  const { client, label, bodyBytes, bare } = setup;
  const title: Column | undefined = (await client.listColumns(setup.appId)).find((column) => column.field_id_in_data === 'f31');
  const before = held();
  const read = await client.streamView(setup.appId, setup.viewId, []);
  const store = read.rows;
  const started = performance.now();
  const index = new RecordIndex(store, { titleKey: 'f31', textKeys: ['f31', 'f33', 'f40', 'f41'] });
  index.extend();
  const buildMs = performance.now() - started;
  const both = held() - before;
  const rows: BenchRow[] = [
    {
      measure: `${label}: host memory, tree's rows + Go to Record index`,
      value: `${mb(both)} (${(both / bodyBytes).toFixed(2)} × body; bare ${mb(bare.held)})`,
      target: `≤ ${setup.memoryFactor} × body`,
      met: both <= setup.memoryFactor * bodyBytes,
    },
    { measure: `Go to Record, ${label}: index built`, value: ms(buildMs) },
  ];
  if (setup.keystrokeMs !== undefined) rows.push(...(await keystrokes(store, index, title, label, setup.keystrokeMs, setup.notes)));
  store.release();
  return rows;
}

async function keystrokes(
  store: Awaited<ReturnType<PortalClient['streamView']>>['rows'],
  index: RecordIndex,
  title: Column | undefined,
  label: string,
  target: number,
  notes: string[],
): Promise<BenchRow[]> {
  let sent = 0;
  const pick: RecordPickSink = {
    busy: false,
    get items() {
      return [];
    },
    set items(items: readonly RecordPickItem[]) {
      sent += JSON.stringify(items).length; // what the extension host sends the workbench
    },
    refreshed: () => undefined,
  };
  let shown = '';
  const finder = new RecordFinder(index, store, title, pick, { limit: 100 }, (query) => (shown = query));
  const typed = ['laptop lyon', '54321', 'tyrell', 'user4999@customers', 'zzzz nothing', 'berlin printer'];
  const times: Array<{ query: string; ms: number }> = [];
  for (const text of typed) {
    for (let length = 1; length <= text.length; length += 1) {
      const query = text.slice(0, length);
      const at = performance.now();
      finder.find(query);
      while (shown !== query) await new Promise((resolve) => setImmediate(resolve));
      times.push({ query, ms: performance.now() - at });
    }
    finder.find(''); // the user clears the box before the next search
    while (shown !== '') await new Promise((resolve) => setImmediate(resolve));
  }
  const worst = Math.max(...times.map((time) => time.ms));
  const slowest = [...times].sort((a, b) => b.ms - a.ms).slice(0, 4);
  notes.push(
    `Go to Record, ${label}: slowest keystrokes ${slowest.map((entry) => `"${entry.query}" ${entry.ms.toFixed(1)} ms`).join(', ')}.`,
  );
  // The path before RecordFinder, for comparison in the same run: a whole search and every item built and
  // sent again at each keystroke.
  let before = 0;
  for (const text of typed) {
    for (let length = 1; length <= text.length; length += 1) {
      const at = performance.now();
      const items = index.search(text.slice(0, length), 100).map((row) => {
        const record = store.row(row);
        return {
          label: recordTitle(record.id ?? '', record.values, title),
          description: `#${record.id ?? ''}`,
          alwaysShow: true,
          recordId: record.id ?? '',
        };
      });
      JSON.stringify(items);
      before = Math.max(before, performance.now() - at);
    }
  }
  return [
    {
      measure: `Go to Record, ${label}: keystroke to its items set, slowest`,
      value: `${worst.toFixed(1)} ms (median ${median(times.map((time) => time.ms)).toFixed(1)})`,
      target: `≤ ${target} ms`,
      met: worst <= target,
    },
    {
      measure: `Go to Record, ${label}: longest slice of work`,
      value: `${finder.longestSliceMs.toFixed(1)} ms`,
      target: `${times.length} keystrokes, ${(sent / 1e6).toFixed(1)} MB of items`,
    },
    {
      measure: `Go to Record, ${label}: whole search per keystroke (before)`,
      value: `${before.toFixed(1)} ms`,
      target: 'slowest, same keystrokes',
    },
  ];
}
