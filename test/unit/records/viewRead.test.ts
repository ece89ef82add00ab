// The one view-read session and its shared copies (records/viewRead.ts), in plain node against the
// emulator over HTTP; its answers sent slowly so that a read is still under way when it is shared, stopped
// or let go. The emulator's request log counts the reads.
import * as assert from 'node:assert/strict';
import { isCancellation } from '../../../src/api/errors';
import type { PortalClient } from '../../../src/api/client';
import { ViewReadHub, type ViewReadBatch, type ViewReadEnd, type ViewReadSession } from '../../../src/records/viewRead';
import { clientFor, emulatorControl, startPortal, type Emulator } from '../../support/portal';

const VIEW = { portalId: 'emulator', appId: '201', viewId: '6' };
const ROWS = 20_000;

interface LoggedRequest {
  method: string;
  path: string;
}

describe('the view-read session', function () {
  let emulator: Emulator;
  /** A portal next door whose view is read whole at once: its log counts the reads. */
  let near: Emulator;
  let client: PortalClient;
  let nearClient: PortalClient;
  let hub: ViewReadHub;

  before(async () => {
    // 20,000 rows at 300 KB/s take about 17 s: a read let go early that went on would time the test out.
    emulator = await startPortal({ bigViewRecords: ROWS, bytesPerSecond: 300_000 });
    near = await startPortal({ bigViewRecords: 2_000 });
    client = clientFor(emulator).client;
    nearClient = clientFor(near).client;
  });
  beforeEach(async () => {
    hub = new ViewReadHub((portalId) => (portalId === 'near' ? nearClient : client));
    await emulatorControl(near, 'DELETE', 'requests');
  });
  after(() => Promise.all([emulator.close(), near.close()]));

  /** The reads of the view the near portal logged. */
  async function viewReads(): Promise<number> {
    const log = await emulatorControl<LoggedRequest[]>(near, 'GET', 'requests');
    return log.filter((entry) => entry.method === 'GET' && entry.path.includes(`/app/${VIEW.appId}/view/${VIEW.viewId}`)).length;
  }

  /** Resolves once the session has handed over some rows. */
  function firstRows(session: ViewReadSession): Promise<ViewReadBatch> {
    return new Promise((resolve) => {
      const unsubscribe = session.subscribe({
        batch: (batch) => {
          unsubscribe();
          resolve(batch);
        },
      });
    });
  }

  it('shares one read of a view between its holders, and lets its rows go with the last', async () => {
    const NEAR = { ...VIEW, portalId: 'near' };
    const first = hub.open(NEAR);
    const second = hub.open({ ...NEAR, filters: [] });
    assert.equal(second.session, first.session, 'a second place opening it while it is read holds the same copy');
    const end = await first.session.ended();
    assert.equal(end.rows.length, 2_000);
    const third = hub.open(NEAR);
    assert.equal(third.session, first.session, 'so does a third, once it is read');
    const seen: number[] = [];
    const ended: ViewReadEnd[] = [];
    third.session.subscribe({ batch: ({ from, to }) => void seen.push(from, to), ended: (done) => void ended.push(done) });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, [0, 2_000], 'a late holder hears every row arrived before it');
    assert.deepEqual(ended, [end], '... then the end');
    assert.equal(await viewReads(), 1, 'one request for the three');
    first.release();
    second.release();
    assert.equal(end.rows.isReleased, false, 'the third holder still shows the rows');
    third.release();
    assert.equal(end.rows.isReleased, true, 'nothing shows them: their memory goes back');
    assert.equal(hub.peek(NEAR), undefined, 'and a later open reads again');
  });

  it('reads a view with other filters, or fresh, on its own', async () => {
    const NEAR = { ...VIEW, portalId: 'near' };
    const all = hub.open(NEAR);
    const filtered = hub.open({ ...NEAR, filters: [{ column: '31', operator: 'notEmpty' }] });
    const fresh = hub.open(NEAR, { fresh: true });
    assert.notEqual(filtered.session, all.session);
    assert.notEqual(fresh.session, all.session);
    assert.equal(hub.open(NEAR).session, fresh.session, 'a later open shares the fresh copy');
    await Promise.all([all.session.ended(), filtered.session.ended(), fresh.session.ended()]);
    assert.equal(await viewReads(), 3);
    assert.equal(all.session.end?.rows.isReleased, false, 'the older copy stays with its holder');
    for (const hold of [all, filtered, fresh]) hold.release();
  });

  it('Cancel keeps the rows arrived, for every holder, marked partial (stopped)', async () => {
    const one = hub.open(VIEW);
    const other = hub.open(VIEW);
    const ends: ViewReadEnd[] = [];
    other.session.subscribe({ ended: (end) => void ends.push(end) });
    await firstRows(one.session);
    assert.ok(one.session.stop(), 'a read was under way');
    const end = await one.session.ended();
    assert.ok(end.rows.length > 0 && end.rows.length < ROWS, `${end.rows.length} rows kept`);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(ends, [end], 'the other holder heard the same end');
    assert.equal(one.session.stop(), false, 'nothing runs any more');
    one.release();
    other.release();
  });

  it('the last holder letting go aborts the read under way and gives the rows back at once', async () => {
    const hold = hub.open(VIEW);
    const { rows } = await firstRows(hold.session);
    hold.release();
    hold.release(); // twice is once
    assert.ok(rows.isReleased);
    await assert.rejects(hold.session.ended(), (error) => isCancellation(error));
    assert.throws(() => hold.session.hold(), /let go/);
  });

  it('a read that fails before any row is not shared: the next open reads again', async () => {
    const hold = hub.open({ ...VIEW, viewId: '999999' });
    const failures: unknown[] = [];
    hold.session.subscribe({ failed: (error) => void failures.push(error) });
    await assert.rejects(hold.session.ended());
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(failures.length, 1, 'the holder heard why');
    const again = hub.open({ ...VIEW, viewId: '999999' });
    assert.notEqual(again.session, hold.session);
    await assert.rejects(again.session.ended());
    hold.release();
    again.release();
  });
});
