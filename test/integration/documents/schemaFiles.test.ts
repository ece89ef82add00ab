// A record schema's stat: VS Code reads a document again after a change event only when its stat moved,
// so a new list of columns whose schema keeps its byte length must still move mtime. The emulator cannot
// change an app's columns: a fault answers one read of them with a column renamed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Column } from '../../../src/api/types';
import { emulatorControl } from '../support/emulator';
import { testApi } from '../support/extension';
import { useConnectedPortal } from './support';

describe('schema documents', () => {
  const portal = useConnectedPortal();
  afterEach(() => emulatorControl('DELETE', 'faults'));

  it("a change of columns that keeps the schema's length moves its mtime; the same columns do not", async () => {
    const api = await testApi();
    api.catalog.refresh(portal(), '101');
    const uri = vscode.Uri.parse(`portal://${portal()}/101/schema/record.json`);
    const first = await vscode.workspace.fs.stat(uri);
    assert.deepEqual(await vscode.workspace.fs.stat(uri), first, 'the same columns: the same stat');

    const columns = await api.portals.client(portal()).listColumns('101');
    const renamed = columns.map((column): Column => (column.field_id_in_data === 'f2' ? { ...column, field_name: 'Nome' } : column));
    assert.notDeepEqual(renamed, columns, 'f2 is "Name", renamed "Nome"');
    await emulatorControl('POST', 'faults', { method: 'GET', path: '^/api/v1/app/101/columns$', count: 1, status: 200, body: renamed });
    api.catalog.refresh(portal(), '101');
    const second = await vscode.workspace.fs.stat(uri);
    assert.equal(second.size, first.size, 'the schema keeps its length');
    assert.ok(second.mtime > first.mtime, `mtime moves (${first.mtime} → ${second.mtime})`);
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), /Nome/);
  });
});
