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
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

const ROWS = 20_000;

describe(`a Query View panel's rows ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  const user = useScriptedPrompter();

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
    await query.waitFor('#run:not([disabled])', { timeoutMs: 20_000 }); // on once the columns have come
    await query.click('#run');
    await waitFor(async () => (await query.text('#row-count')) === `${ROWS.toLocaleString('en-US')} rows`, {
      message: 'the whole result',
      timeoutMs: 60_000,
    });

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
  it('stay readable for an export whose save dialog is open when the panel closes; a partial result says so', async () => {
    await emulatorControl('POST', 'config', { bytesPerSecond: 400_000 });
    const portalId = await emulatorPortal();
    await vscode.commands.executeCommand('portal.queryView', { portalId, appId: '201', viewId: '6', viewName: 'All tickets' });
    const query = driver.webview('All tickets');
    await query.waitFor('#run:not([disabled])', { timeoutMs: 20_000 }); // on once the columns have come
    await query.click('#run');
    await waitFor(async () => /^Loading… [\d,]+ rows so far$/.test(await query.text('#row-count')), {
      message: 'the first rows',
      timeoutMs: 30_000,
    });
    await query.click('#cancel-run');
    let status = '';
    await waitFor(async () => /^[\d,]+ rows \(partial\)$/.test((status = await query.text('#row-count'))), {
      message: 'the run cancelled, its rows kept',
      timeoutMs: 30_000,
    });
    const count = Number(status.replace(/\D/g, ''));
    assert.ok(count > 0 && count < ROWS, status);
    const rows = (await (await testApi()).queryResults()).find((result) => result.viewId === '6')?.rows;
    assert.ok(rows);

    // The save dialog stays open until the panel is closed: the export must still have its rows.
    const scripted = user();
    const titles: string[] = [];
    let chosen: (uri: vscode.Uri) => void = () => undefined;
    const answered = new Promise<vscode.Uri>((resolve) => (chosen = resolve));
    const ask = scripted.saveDialog.bind(scripted);
    scripted.saveDialog = async (options) => {
      titles.push(options.title ?? '');
      scripted.answerSaveDialog(await answered);
      return ask(options);
    };
    await query.click('#export-csv');
    await waitFor(() => titles.length === 1, { message: 'the save dialog' });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(async () => (await (await testApi()).queryResults()).length === 0, { message: 'the panel closed' });
    const target = vscode.Uri.joinPath(workspaceRoot(), 'partial.csv');
    chosen(target);
    await waitFor(
      () => scripted.messagesOf('info').some((text) => text.startsWith('Exported')) || scripted.messagesOf('error').length > 0,
      { message: 'the export to end', timeoutMs: 30_000 },
    );
    assert.deepEqual(scripted.messagesOf('error'), []);
    const lines = new TextDecoder()
      .decode(await vscode.workspace.fs.readFile(target))
      .split('\r\n')
      .filter((line) => line !== '');
    assert.equal(lines.length, count + 1, 'a header and every row read');
    const total = count.toLocaleString('en-US');
    assert.equal(titles[0], `Export ${total} rows of All tickets (a partial result)`);
    assert.deepEqual(scripted.messagesOf('info'), [
      `Exported ${total} rows to partial.csv. They are a partial result: Cancelled after ${total} rows.`,
    ]);
    await waitFor(() => rows.isReleased, { message: 'the rows given back once the export ended' });
    await vscode.workspace.fs.delete(target);
  });
});
