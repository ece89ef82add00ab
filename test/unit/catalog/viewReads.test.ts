// The reads of view rows behind the tree and Go to Record (ViewReads), in plain node against the emulator
// over HTTP, its answers sent slowly so that a read is still under way when the view is dropped.
import * as assert from 'node:assert/strict';
import { isCancellation } from '../../../src/api/errors';
import type { RowStore } from '../../../src/api/rowStore';
import { ViewReads, type StoredView, type ViewRowsArrival } from '../../../src/catalog/viewReads';
import { ViewReadHub } from '../../../src/records/viewRead';
import { clientFor, startPortal, type Emulator } from '../api/portal';

const VIEW = { portalId: 'emulator', appId: '201', viewId: '6' };

describe('the reads of view rows', function () {
  let emulator: Emulator;
  let reads: ViewReads;
  let arrivals: ViewRowsArrival[];
  let waiters: (() => void)[];
  let outdated: string[];

  before(async () => {
    // 20,000 rows at 300 KB/s take about 17 s: a read dropped early that went on would time the test out.
    emulator = await startPortal({ bigViewRecords: 20_000, bytesPerSecond: 300_000 });
  });
  beforeEach(() => {
    const { client } = clientFor(emulator);
    arrivals = [];
    waiters = [];
    outdated = [];
    reads = new ViewReads({
      outdated: (view) => outdated.push(view.viewId),
      hub: new ViewReadHub(() => client),
      noteDraftSeen: () => undefined,
      arrived: (arrival) => {
        arrivals.push(arrival);
        for (const wake of waiters.splice(0)) wake();
      },
    });
  });
  afterEach(() => reads.dispose());
  after(() => emulator.close());

  /** The rows of the read under way once its first batch arrived. */
  async function firstRows(): Promise<RowStore> {
    while (!reads.arrivingRows(VIEW)) await new Promise<void>((resolve) => waiters.push(resolve));
    const rows = reads.arrivingRows(VIEW);
    assert.ok(rows);
    return rows;
  }

  async function cancelled(read: Promise<StoredView>): Promise<void> {
    await assert.rejects(read, (error) => isCancellation(error), 'the read ends as cancelled, not with the whole view');
  }

  it('stops a read under way when its view is dropped, releases its rows, and Cancel reaches the read that follows', async () => {
    const first = reads.read(VIEW); // the tree expands the view: no signal, the read is nobody's to abort
    const arrived = await firstRows();
    reads.drop(VIEW.portalId, VIEW.appId); // Refresh, Remove View, an import, a webhook…
    assert.equal(reads.arrivingRows(VIEW), undefined, 'no rows of the dropped read are shown any more');
    await cancelled(first);
    assert.ok(arrived.isReleased, 'the dropped rows give their memory back');
    assert.equal(reads.peek(VIEW), undefined);
    const second = reads.read(VIEW);
    await firstRows();
    assert.ok(reads.stop(VIEW), 'Cancel reaches the read under way');
    const stopped = await second;
    assert.equal(stopped.partial?.kind, 'cancelled');
    assert.ok(stopped.rows.length > 0 && stopped.rows.length < 20_000, `${stopped.rows.length} rows kept`);
  });

  it("knows the portals it keeps rows of, so a removed portal's can be dropped, its read under way too", async () => {
    const read = reads.read(VIEW);
    await firstRows();
    assert.deepEqual([...reads.portals()], [VIEW.portalId], 'a read under way counts');
    reads.drop(VIEW.portalId);
    await cancelled(read);
    assert.deepEqual([...reads.portals()], []);
  });

  it('a drop keeps a read started after the change', async () => {
    const changedAt = Date.now();
    const read = reads.read(VIEW);
    await firstRows();
    reads.drop(VIEW.portalId, VIEW.appId, undefined, { changedAt }); // a webhook's change, older than the read
    assert.ok(reads.arrivingRows(VIEW), 'the read goes on');
    reads.stop(VIEW);
    const kept = await read;
    assert.equal(kept.partial?.kind, 'cancelled', 'ended by Cancel only');
    assert.equal(reads.peek(VIEW), kept, 'its rows are kept');
    assert.deepEqual(outdated, []);
  });

  it('a record change during a read lets it finish, then has the view read again once', async () => {
    const read = reads.read(VIEW);
    await firstRows();
    for (let change = 0; change < 3; change += 1) reads.drop(VIEW.portalId, VIEW.appId, undefined, { changedAt: Date.now() + 1 }); // a trickle of changes
    assert.ok(reads.arrivingRows(VIEW), 'the read is not restarted by each change');
    reads.stop(VIEW);
    const finished = await read;
    assert.ok(finished.rows.length > 0, 'the caller gets what was read');
    assert.equal(reads.peek(VIEW), undefined, 'not kept: it may miss the changes');
    assert.deepEqual(outdated, [VIEW.viewId], 'whoever shows it is told once, to read again');
  });

  it("a view the portal refuses fails with the portal's answer, not as cancelled (Add View offers the id again)", async () => {
    await assert.rejects(
      reads.read({ ...VIEW, viewId: '99' }),
      (error) => !isCancellation(error) && /404/.test(String(error)),
      'the 404 reaches the caller',
    );
  });

  it('stops the reads under way when disposed', async () => {
    const read = reads.read(VIEW);
    const arrived = await firstRows();
    reads.dispose();
    await cancelled(read);
    assert.ok(arrived.isReleased);
  });
});
