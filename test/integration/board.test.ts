// A view as a board in code-server, as a person uses it: opened with Open View as Board…, a card moved to
// the next column with the keyboard in the webview, the tab dirty, Ctrl+Z taking it back, Ctrl+S saving
// through the grid's save (one PUT of the card's record, checked in the emulator's request log, with only
// its Status changed), a card someone else changed held back and resolved with Keep Mine from the board,
// and the backup VS Code keeps for hot exit holding the moved card.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GridDocument } from '../../src/grid/host/gridDocument';
import { useConnectedPortal } from './documents/support';
import { closeAllEditors, emulatorRecord, requestMark, requestsSince } from './support/documents';
import { BROWSER_TAG, driver, type WebviewDom } from './support/driver';
import { testApi } from './support/extension';
import { clearNotifications } from './support/notifications';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';

const PAGE = 'All orders (board)';
/** Gift baskets: Status New (1), Amount 340.50. */
const GIFTS = '4';

function boardTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .find((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.viewType === 'portal.board');
}

async function liveBoard(): Promise<GridDocument | undefined> {
  const input = boardTab()?.input;
  return input instanceof vscode.TabInputCustom ? (await testApi()).boardEditor.openDocument(input.uri) : undefined;
}

describe(`a view as a board ${BROWSER_TAG}`, () => {
  useScriptedPrompter();
  const portal = useConnectedPortal();
  afterEach(async () => {
    await clearNotifications();
    await closeAllEditors();
  });

  async function openBoard(): Promise<WebviewDom> {
    await vscode.commands.executeCommand('portal.openViewAsBoard', {
      portalId: portal(),
      appId: '102',
      viewId: '3',
      viewName: 'All orders',
    });
    const board = driver.webview(PAGE);
    await board.waitFor(`.card[data-record-id="${GIFTS}"]`, { timeoutMs: 20_000 });
    return board;
  }

  /** Alt+ArrowRight on the card: to the next column, as the keyboard moves it. */
  async function moveRight(board: WebviewDom, recordId: string): Promise<void> {
    await board.press(`.card[data-record-id="${recordId}"]`, 'Alt+ArrowRight');
  }

  it('a card moved to the next column dirties the tab, Ctrl+Z takes it back, and Ctrl+S sends one PUT of its Status', async () => {
    const board = await openBoard();
    assert.equal(await board.text('.board-cell[data-column="1"] .card[data-record-id="4"] .card-title'), 'Gift baskets');
    await moveRight(board, GIFTS);
    await board.waitFor(`.board-cell[data-column="2"] .card.pending[data-record-id="${GIFTS}"]`);
    await waitFor(() => boardTab()?.isDirty === true, { message: 'the board tab to be dirty' });
    await board.press(`.card[data-record-id="${GIFTS}"]`, 'Control+Z');
    await board.waitFor(`.board-cell[data-column="1"] .card[data-record-id="${GIFTS}"]`);
    await waitFor(() => boardTab()?.isDirty === false, { message: 'Undo to take the move back' });

    await moveRight(board, GIFTS);
    await board.waitFor(`.board-cell[data-column="2"] .card.pending[data-record-id="${GIFTS}"]`);
    const before = await emulatorRecord('102', GIFTS);
    const mark = await requestMark();
    await board.press(`.card[data-record-id="${GIFTS}"]`, 'Control+S');
    await waitFor(() => boardTab()?.isDirty === false, { message: 'the board saved', timeoutMs: 20_000 });
    assert.deepEqual(
      (await requestsSince(mark)).filter((line) => line.startsWith('PUT')),
      [`PUT /api/v1/app/102/record/${GIFTS} 200`],
    );
    const after = await emulatorRecord('102', GIFTS);
    assert.equal(after.data.f19, '2', 'Status: Confirmed');
    assert.deepEqual({ ...after.data, f19: before.data.f19 }, before.data, 'no other field changed');
    await board.waitFor(`.board-cell[data-column="2"] .card[data-record-id="${GIFTS}"]:not(.pending)`);
    await driver.screenshot('board-saved');
  });

  it('a card someone else changed is held back at save; Keep Mine on the board sends mine', async () => {
    const board = await openBoard();
    await moveRight(board, GIFTS);
    await board.waitFor(`.board-cell[data-column="2"] .card.pending[data-record-id="${GIFTS}"]`);
    await (await testApi()).portals.client(portal()).updateRecord('102', GIFTS, { f18: '99' });
    await board.press(`.card[data-record-id="${GIFTS}"]`, 'Control+S');
    await board.waitFor(`.card.problem[data-record-id="${GIFTS}"]`, { timeoutMs: 20_000 });
    assert.equal((await emulatorRecord('102', GIFTS)).data.f19, '1', 'held back');
    await board.click(`.card[data-record-id="${GIFTS}"]`);
    await board.waitFor('#board-keep-mine');
    assert.match(await board.text('#board-card'), /Someone else changed this record/);
    const mark = await requestMark();
    await board.click('#board-keep-mine');
    await waitFor(() => boardTab()?.isDirty === false, { message: 'the board saved after Keep Mine', timeoutMs: 20_000 });
    assert.deepEqual(
      (await requestsSince(mark)).filter((line) => line.startsWith('PUT')),
      [`PUT /api/v1/app/102/record/${GIFTS} 200`],
    );
    const record = await emulatorRecord('102', GIFTS);
    assert.equal(record.data.f19, '2');
    assert.equal(record.data.f18, '99', 'their change is kept');
  });

  it("keeps the moved card in the backup VS Code asks for on hot exit, as the grid's", async () => {
    const board = await openBoard();
    await moveRight(board, GIFTS);
    await waitFor(() => boardTab()?.isDirty === true, { message: 'the board tab to be dirty' });
    const api = await testApi();
    const live = await liveBoard();
    const tab = boardTab();
    assert.ok(live && tab && tab.input instanceof vscode.TabInputCustom, 'the board in front');
    const destination = vscode.Uri.joinPath(api.context.globalStorageUri, 'board-backup-test.json');
    const backup = await api.boardEditor.backupCustomDocument(live, { destination });
    const restored = await api.boardEditor.openCustomDocument(tab.input.uri, { backupId: backup.id, untitledDocumentData: undefined });
    // The document opens before its rows (the tab's page loads meanwhile); the backup is applied to them.
    await api.gridEditor.firstRows(restored);
    assert.equal(restored.model.changeSet.value(GIFTS, 'f19'), '2', 'the move is back');
    assert.equal(restored.model.changeSet.isPending(GIFTS, 'f19'), true);
    restored.dispose();
    backup.delete();
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => boardTab()?.isDirty === false, { message: 'the board reverted' });
    await board.waitFor(`.board-cell[data-column="1"] .card[data-record-id="${GIFTS}"]`);
    assert.equal((await emulatorRecord('102', GIFTS)).data.f19, '1', 'nothing was sent');
  });
});
