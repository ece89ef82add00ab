// Closing a Query View panel gives its rows' memory back (issue 19): the result it kept (a RowStore of the
// answer's bytes) is released when the panel's tab closes, not when the garbage collector gets to it. The
// rows are reached through the test seam testApi().queryResults(); the panel is run and closed as a user does.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RowStore } from '../../src/api/rowStore';
import { BROWSER_TAG, driver } from './support/driver';
import { emulatorControl, resetEmulator } from './support/emulator';
import { emulatorPortal } from './support/explorer';
import { testApi } from './support/extension';
import { waitFor } from './support/wait';

const ROWS = 20_000;

describe(`a Query View panel's rows ${BROWSER_TAG}`, function () {
  this.timeout(90_000);

  beforeEach(async () => {
    await resetEmulator();
    await emulatorControl('POST', 'config', { bigViewRecords: ROWS });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  afterEach(resetEmulator);

  it('are kept while the panel is open and given back when it closes', async () => {
    const portalId = await emulatorPortal();
    await vscode.commands.executeCommand('portal.queryView', { portalId, appId: '201', viewId: '6', viewName: 'All tickets' });
    const query = driver.webview('All tickets');
    await query.waitFor('#run', { timeoutMs: 20_000 });
    await query.click('#run');
    await waitFor(async () => (await query.text('#row-count')) === `${ROWS.toLocaleString('en-US')} rows`, { message: 'the whole result', timeoutMs: 60_000 });

    const api = await testApi();
    const kept = (await api.queryResults()).find((result) => result.viewId === '6')?.rows;
    assert.ok(kept, 'the open panel keeps its result');
    const rows: RowStore = kept;
    assert.equal(rows.length, ROWS);
    assert.equal(rows.isReleased, false);
    assert.ok(rows.heldBytes > 1_000_000, `${rows.heldBytes} bytes held for the rows`);

    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(() => rows.isReleased, { message: 'the rows to be released when the panel closed' });
    assert.equal(rows.heldBytes, 0);
    assert.deepEqual(
      (await api.queryResults()).map((result) => result.viewId),
      [],
      'no panel is left keeping rows',
    );
  });
});
