// One view shown in several places is read once: the tree (and Go to Record, through the catalog's
// ViewReads), a Query View and a grid's reader all hold the shared copy of the one view-read session
// (records/viewRead.ts). Plain node against the emulator; its request log counts the reads.
import * as assert from 'node:assert/strict';
import type { ViewFilter } from '../../../src/api/filters';
import { ViewReads } from '../../../src/catalog/viewReads';
import type { RowsSource } from '../../../src/grid/model/rowCopies';
import { ViewReadHub } from '../../../src/records/viewRead';
import type { HostToQueryMessage } from '../../../src/shared/protocol';
import { shownInPanel } from '../../../src/ui/failures';
import { GridRowsReader } from '../../../src/grid/host/rowsReader';
import { ViewQuerySession } from '../../../src/webviews/viewQuery/querySession';
import { clientFor, emulatorControl, startPortal, type Emulator } from '../../support/portal';

const VIEW = { portalId: 'emulator', appId: '201', viewId: '6' };

describe('a view shown in several places', function () {
  let emulator: Emulator;
  before(async () => {
    emulator = await startPortal({ bigViewRecords: 3_000 });
  });
  beforeEach(() => emulatorControl(emulator, 'DELETE', 'requests'));
  after(() => emulator.close());

  async function viewReads(): Promise<number> {
    const log = await emulatorControl<Array<{ method: string; path: string }>>(emulator, 'GET', 'requests');
    return log.filter((entry) => entry.method === 'GET' && entry.path.includes('/view/6')).length;
  }

  function parts(): { hub: ViewReadHub; tree: ViewReads; query: ViewQuerySession; grid: GridRowsReader } {
    const { client } = clientFor(emulator);
    const hub = new ViewReadHub(() => client);
    const tree = new ViewReads({ hub, noteDraftSeen: () => undefined, arrived: () => undefined });
    const messages: HostToQueryMessage[] = [];
    const opener = hub.opener(VIEW);
    const query = new ViewQuerySession(
      client,
      VIEW.appId,
      VIEW.viewId,
      (message) => messages.push(message),
      shownInPanel(() => undefined),
      opener,
    );
    const grid = new GridRowsReader(
      () => client,
      VIEW.appId,
      VIEW.viewId,
      () => undefined,
      opener,
    );
    return { hub, tree, query, grid };
  }

  it('the tree, a Query View and a grid read it once, and each shows every row', async () => {
    const { tree, query, grid } = parts();
    let gridRows = 0;
    let gridHold: RowsSource | undefined;
    const gridRead = grid.read([], {
      first: (rows, _metadata, _live, source) => {
        gridRows += rows.length;
        gridHold = source; // as the grid's model keeps it
      },
      more: (rows) => void (gridRows += rows.length),
      ended: () => undefined,
    });
    const [stored] = await Promise.all([tree.read(VIEW), query.run(1, []), gridRead, grid.whenEnded()]);
    await grid.whenEnded();
    assert.equal(stored.rows.length, 3_000);
    assert.equal(query.result?.rows.length, 3_000);
    assert.equal(gridRows, 3_000);
    assert.equal(query.result?.rows, stored.rows, 'one copy of the rows');
    assert.equal(await viewReads(), 1, 'one request to the portal');
    query.dispose();
    grid.dispose();
    gridHold?.release?.(); // the grid's tab closed: its model lets the rows go
    assert.equal(stored.rows.isReleased, false, 'the tree still shows the rows');
    tree.dispose();
    assert.equal(stored.rows.isReleased, true, 'nothing shows them any more');
  });

  it('the same filters share a read; other filters, and Run again, read anew', async () => {
    const { tree, query, grid } = parts();
    const open: ViewFilter[] = [{ column: '35', operator: 'equals', value: '1' }];
    const steps = { first: () => undefined, more: () => undefined, ended: () => undefined };
    await Promise.all([query.run(1, open), grid.read(open, steps), tree.read(VIEW)]);
    await grid.whenEnded();
    assert.equal(await viewReads(), 2, 'one read with the filters, one without');
    await query.run(2, open);
    assert.equal(await viewReads(), 3, 'Run again reads the view again');
    query.dispose();
    grid.dispose();
    tree.dispose();
  });

  it('a grid opened on a view the tree has read whole takes its first rows at once, then the rest in order', async () => {
    const { tree, query, grid } = parts();
    const stored = await tree.read(VIEW);
    const batches: string[][] = [];
    let hold: RowsSource | undefined;
    const take = (rows: readonly { id?: string }[]): number => batches.push(rows.map((row) => row.id ?? ''));
    await grid.read([], {
      first: (rows, _metadata, _live, source) => {
        take(rows);
        hold = source;
      },
      more: (rows) => void take(rows),
      ended: () => undefined,
    });
    assert.equal(batches.length, 1, 'the read resolves with its first rows, the rest to come');
    assert.ok(batches[0].length <= 1_000, `the first rows alone, not the ${stored.rows.length} read (${batches[0].length})`);
    await grid.whenEnded();
    assert.deepEqual(
      batches.flat(),
      [...stored.rows.rows()].map((row) => row.id),
      "every row once, in the view's order",
    );
    assert.deepEqual(grid.state, { state: 'done', count: 3_000 });
    assert.equal(await viewReads(), 1, "the tree's read, shared");
    query.dispose();
    grid.dispose();
    hold?.release?.();
    tree.dispose();
  });
});
