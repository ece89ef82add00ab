// The queue an open grid's row refreshes go through after webhooks (src/grid/model/refreshQueue.ts): a bounded
// number of reads at once, a record read once however many events name it, read again when an event comes
// while its read is on the way, 'deleted' taking over, nothing sent once the grid closes, many records read
// with one read of the view when the save's rule says so, and a 429 pausing every read for its Retry-After.
// The mechanics with a fake reader whose answers the test releases; the view read and its GET fallback also
// against the emulator over HTTP.
import * as assert from 'node:assert/strict';
import { PortalError } from '../../../src/api/errors';
import type { RecordData } from '../../../src/api/types';
import type { PortalCopy } from '../../../src/grid/model/changeSet';
import { appRecords } from '../../../src/records/store';
import { RefreshQueue, type RefreshQueueOptions } from '../../../src/grid/model/refreshQueue';
import { readViewCopies, type ViewCheckSource } from '../../../src/grid/model/viewCheck';
import { testInterface } from '../api/portal';
import { ALL_ORDERS, freshGrid, ORDERS, requestLog, someoneElseOn, startGridPortal, type GridPortal } from './gridPortal';

interface Pending<T> {
  readonly signal: AbortSignal;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A portal whose answers the test gives: every read waits until released. */
class FakePortal {
  readonly gets: Array<Pending<RecordData | undefined> & { readonly recordId: string }> = [];
  readonly views: Array<Pending<Map<string, RecordData>> & { readonly wanted: ReadonlySet<string> }> = [];
  private open = 0;
  mostAtOnce = 0;

  readCurrent = (recordId: string, signal?: AbortSignal): Promise<RecordData | undefined> =>
    this.track(
      new Promise((resolve, reject) => this.gets.push({ recordId, signal: signal ?? new AbortController().signal, resolve, reject })),
    );

  view(viewRows: number, roundTripMs: number): ViewCheckSource {
    return {
      viewRows,
      roundTripMs: () => roundTripMs,
      read: (wanted, signal) =>
        this.track(
          new Promise((resolve, reject) =>
            this.views.push({ wanted: new Set(wanted), signal: signal ?? new AbortController().signal, resolve, reject }),
          ),
        ),
    };
  }

  get inFlight(): number {
    return this.open;
  }

  /** The GET of `recordId` not answered yet. */
  get(recordId: string): Pending<RecordData | undefined> {
    const found = this.gets.find((get) => get.recordId === recordId);
    assert.ok(found, `a GET of ${recordId} (sent: ${this.gets.map((get) => get.recordId).join(', ')})`);
    this.gets.splice(this.gets.indexOf(found), 1);
    return found;
  }

  private async track<T>(answer: Promise<T>): Promise<T> {
    this.open += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.open);
    try {
      return await answer;
    } finally {
      this.open -= 1;
    }
  }
}

const copyOf = (recordId: string, version = 1): RecordData => ({ f11: `record ${recordId} v${version}` });
const ids = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, at) => String(from + at));
/** Lets the promise callbacks queued so far run (answers handed over, the next reads sent). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const rateLimited = (retryAfterMs: number | undefined): PortalError =>
  new PortalError({
    kind: 'http',
    status: 429,
    message: 'Reading record: HTTP 429 (the portal is limiting requests; try again later).',
    retryAfterMs,
  });

describe('grid: the queue of row refreshes after webhooks', () => {
  let portal: FakePortal;
  let refreshed: Array<[string, PortalCopy]>;
  let failures: Array<[string | undefined, unknown]>;
  let queue: RefreshQueue;

  const start = (options: Partial<RefreshQueueOptions> = {}): RefreshQueue =>
    (queue = new RefreshQueue({
      store: { readCurrent: portal.readCurrent },
      refreshed: (recordId, copy) => refreshed.push([recordId, copy]),
      failed: (recordId, error) => failures.push([recordId, error]),
      ...options,
    }));

  /** Answers every GET sent, and the ones they let go, until none is left. */
  async function answerAll(version = 1): Promise<void> {
    await settle();
    while (portal.gets.length > 0) {
      for (const get of portal.gets.splice(0)) get.resolve(copyOf(get.recordId, version));
      await settle();
    }
  }

  beforeEach(() => {
    portal = new FakePortal();
    refreshed = [];
    failures = [];
  });
  afterEach(() => queue.dispose());

  it('reads at most 4 records at once, each once, the others waiting their turn', async () => {
    start();
    for (const recordId of ids(1, 10)) queue.add(recordId);
    await settle();
    assert.deepEqual(
      portal.gets.map((get) => get.recordId),
      ['1', '2', '3', '4'],
      'four GETs, the first events first',
    );
    portal.get('2').resolve(copyOf('2'));
    await settle();
    assert.deepEqual(
      portal.gets.map((get) => get.recordId),
      ['1', '3', '4', '5'],
      'one ends, the next begins',
    );
    await answerAll();
    assert.equal(portal.mostAtOnce, 4);
    assert.deepEqual(
      refreshed.map(([recordId]) => recordId).sort((a, b) => Number(a) - Number(b)),
      ids(1, 10),
      'every record refreshed once',
    );
    assert.deepEqual(refreshed.find(([recordId]) => recordId === '7')?.[1], copyOf('7'));
  });

  it('reads a record once however many events name it while it waits', async () => {
    start();
    for (const recordId of ['1', '2', '3', '4', '5', '5', '6', '5', '6']) queue.add(recordId);
    await answerAll();
    assert.equal(refreshed.filter(([recordId]) => recordId === '5').length, 1);
    assert.equal(refreshed.filter(([recordId]) => recordId === '6').length, 1);
    assert.equal(refreshed.length, 6);
  });

  it('reads a record once more after the read on its way when an event comes meanwhile (the event may be newer than that copy)', async () => {
    start();
    queue.add('1');
    await settle();
    queue.add('1');
    queue.add('1');
    await settle();
    assert.equal(portal.gets.length, 1, 'not a second GET beside the first');
    portal.get('1').resolve(copyOf('1', 1));
    await settle();
    assert.deepEqual(refreshed, [['1', copyOf('1', 1)]]);
    portal.get('1').resolve(copyOf('1', 2));
    await settle();
    assert.deepEqual(
      refreshed,
      [
        ['1', copyOf('1', 1)],
        ['1', copyOf('1', 2)],
      ],
      'read again once, after the first',
    );
    assert.equal(portal.gets.length, 0);
  });

  it("takes a 'deleted' event over an update waiting for the same record, and over the copy of a read on its way", async () => {
    start();
    for (const recordId of ids(1, 5)) queue.add(recordId);
    queue.add('5', true);
    assert.deepEqual(refreshed, [['5', 'deleted']], 'at once: nothing to read');
    queue.add('2', true);
    await answerAll();
    assert.deepEqual(
      refreshed.filter(([recordId]) => recordId === '5' || recordId === '2'),
      [
        ['5', 'deleted'],
        ['2', 'deleted'],
      ],
      'no copy of 5 read, the older copy of 2 not shown',
    );
    assert.deepEqual(
      refreshed.map(([recordId]) => recordId),
      ['5', '2', '1', '3', '4'],
    );
  });

  it('aborts the reads on their way when disposed (the grid closed), sends nothing more and shows nothing', async () => {
    start();
    for (const recordId of ids(1, 9)) queue.add(recordId);
    await settle();
    const sent = [...portal.gets];
    queue.dispose();
    assert.ok(
      sent.every((get) => get.signal.aborted),
      'every read on its way aborted',
    );
    for (const get of sent) get.resolve(copyOf(get.recordId));
    queue.add('10');
    await settle();
    await settle();
    assert.equal(portal.gets.length, 4, 'no GET after the four on their way');
    assert.deepEqual(refreshed, []);
    assert.deepEqual(failures, []);
  });

  it('sends nothing when the pause after a 429 ends after the grid closed', async () => {
    start({ rateLimitWaitMs: 50 });
    for (const recordId of ids(1, 6)) queue.add(recordId);
    await settle();
    portal.get('1').reject(rateLimited(undefined));
    await settle();
    queue.dispose();
    for (const get of portal.gets.splice(0)) get.resolve(copyOf(get.recordId));
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.deepEqual(portal.gets, [], 'no read after the pause');
    assert.deepEqual(refreshed, []);
  });

  it("reads many waiting records with one read of the view when the save's rule says it is cheaper; rows the answer lacks by their own GET", async () => {
    // 8 rows in the view, 50 ms away: 16 records' GETs take 4 rounds (200 ms), the view one round and its rows.
    start({ view: portal.view(8, 50) });
    for (const recordId of ids(1, 4)) queue.add(recordId);
    await settle();
    for (const recordId of ids(5, 20)) queue.add(recordId);
    await settle();
    assert.equal(portal.gets.length, 4, 'the first four went before the others came');
    assert.equal(portal.views.length, 0);
    portal.get('1').resolve(copyOf('1'));
    await settle();
    assert.equal(portal.views.length, 1, 'one read of the view for the sixteen waiting');
    const [view] = portal.views.splice(0);
    assert.deepEqual([...view.wanted], ids(5, 20));
    // Records 19 and 20 are not in the answer (deleted, or filtered out of the view): each by its GET.
    view.resolve(new Map(ids(5, 18).map((recordId) => [recordId, copyOf(recordId)])));
    await settle();
    assert.deepEqual(
      refreshed.map(([recordId]) => recordId),
      ['1', ...ids(5, 18)],
    );
    assert.deepEqual(
      portal.gets.map((get) => get.recordId),
      ['2', '3', '4', '19'],
      'four reads at once still',
    );
    portal.get('19').resolve(undefined);
    await settle();
    portal.get('20').resolve(copyOf('20'));
    for (const recordId of ['2', '3', '4']) portal.get(recordId).resolve(copyOf(recordId));
    await settle();
    assert.deepEqual(
      refreshed.find(([recordId]) => recordId === '19'),
      ['19', 'deleted'],
      'a GET that finds nothing: deleted',
    );
    assert.deepEqual(
      refreshed.find(([recordId]) => recordId === '20'),
      ['20', copyOf('20')],
    );
    assert.equal(portal.gets.length + portal.views.length, 0);
    assert.ok(portal.mostAtOnce <= 4);
  });

  it('keeps a GET each when the view is too big for the records waiting', async () => {
    // 100,000 rows next door (5 ms): the view costs 2 s, 16 GETs 4 rounds of 5 ms.
    start({ view: portal.view(100_000, 5) });
    for (const recordId of ids(1, 20)) queue.add(recordId);
    await answerAll();
    assert.equal(portal.views.length, 0);
    assert.equal(refreshed.length, 20);
  });

  it('pauses every read for the Retry-After of a 429, then reads the refused record again; nothing is failed', async () => {
    start();
    for (const recordId of ids(1, 6)) queue.add(recordId);
    await settle();
    const refusedAt = Date.now();
    portal.get('1').reject(rateLimited(300));
    portal.get('2').resolve(copyOf('2'));
    await settle();
    assert.deepEqual(
      portal.gets.map((get) => get.recordId),
      ['3', '4'],
      'no read begins while the portal asked to wait',
    );
    const again = await waitForGet('1');
    assert.ok(Date.now() - refusedAt >= 290, `not before the Retry-After (${Date.now() - refusedAt} ms)`);
    again.resolve(copyOf('1'));
    await answerAll();
    assert.deepEqual(refreshed.map(([recordId]) => recordId).sort(), ids(1, 6));
    assert.deepEqual(failures, []);
  });

  it('pauses after a 429 to the view read too, then reads the view again', async () => {
    start({ view: portal.view(8, 50), rateLimitWaitMs: 100 });
    for (const recordId of ids(1, 4)) queue.add(recordId);
    await settle();
    for (const recordId of ids(5, 20)) queue.add(recordId);
    portal.get('1').resolve(copyOf('1'));
    await settle();
    portal.views.splice(0)[0].reject(rateLimited(undefined));
    await settle();
    assert.equal(portal.views.length, 0);
    await waitFor(() => portal.views.length === 1, 'the view read again');
    portal.views[0].resolve(new Map(ids(5, 20).map((recordId) => [recordId, copyOf(recordId)])));
    await answerAll();
    assert.equal(refreshed.length, 20);
    assert.deepEqual(failures, []);
  });

  it('reports a failed read once and goes on with the others', async () => {
    start();
    for (const recordId of ids(1, 5)) queue.add(recordId);
    await settle();
    const error = new PortalError({ kind: 'http', status: 500, message: 'Reading record 3: HTTP 500.' });
    portal.get('3').reject(error);
    await answerAll();
    assert.deepEqual(failures, [['3', error]]);
    assert.deepEqual(refreshed.map(([recordId]) => recordId).sort(), ['1', '2', '4', '5']);
  });

  async function waitForGet(recordId: string): Promise<Pending<RecordData | undefined>> {
    await waitFor(() => portal.gets.some((get) => get.recordId === recordId), `a GET of ${recordId}`);
    return portal.get(recordId);
  }
});

async function waitFor(condition: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('grid: the queue of row refreshes against the emulator', function () {
  let portal: GridPortal;
  before(async () => {
    portal = await startGridPortal();
  });
  after(() => portal.emulator.close());

  it("reads many records with one read of the grid's view; one deleted meanwhile is said deleted by its own GET", async () => {
    await freshGrid(portal);
    const someoneElse = someoneElseOn(portal);
    for (const recordId of ids(1, 8)) await someoneElse.updateRecord(ORDERS, recordId, { f11: `Changed ${recordId}` });
    await someoneElse.deleteRecord(ORDERS, '8');
    await testInterface(portal.emulator, 'DELETE', 'requests');
    const refreshed = new Map<string, PortalCopy>();
    const failures: unknown[] = [];
    const view: ViewCheckSource = {
      viewRows: 8,
      // The round trip of a portal 50 ms away: eight GETs, four at once, take two rounds.
      roundTripMs: () => 50,
      read: (wanted, signal, onRows) =>
        readViewCopies(portal.client, { appId: ORDERS, viewId: ALL_ORDERS, filters: [] }, wanted, signal, onRows),
    };
    const queue = new RefreshQueue({
      store: appRecords(portal.client, ORDERS),
      view,
      concurrency: 1,
      refreshed: (recordId, copy) => refreshed.set(recordId, copy),
      failed: (_recordId, error) => failures.push(error),
    });
    try {
      // One read at a time: the first record's GET goes, the seven others wait for it and then go together.
      for (const recordId of ids(1, 8)) queue.add(recordId);
      await waitFor(() => refreshed.size === 8 || failures.length > 0, 'the eight records refreshed', 10_000);
    } finally {
      queue.dispose();
    }
    assert.deepEqual(failures, []);
    const log = (await requestLog(portal.emulator)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
    assert.deepEqual(log, [
      `GET /api/v1/app/${ORDERS}/record/1 200`,
      `GET /api/v1/app/${ORDERS}/view/${ALL_ORDERS} 200`,
      `GET /api/v1/app/${ORDERS}/record/8 404`,
    ]);
    assert.equal(refreshed.get('8'), 'deleted');
    for (const recordId of ids(1, 7))
      assert.equal((refreshed.get(recordId) as RecordData | undefined)?.f11, `Changed ${recordId}`, recordId);
  });
});
