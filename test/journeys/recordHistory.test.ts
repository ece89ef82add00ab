// Journey: a record's history. A record opened from the Portal view, changed by another user in the
// emulator and read again (File: Revert File); the Record History view lists both versions with what
// brought them, and selecting the older one shows its diff against the document.
import * as assert from 'node:assert/strict';
import { changeRecordAsAnotherUser, eventually } from './support/emulator';
import { openRecordRow, showView } from './support/tree';
import { closeAllEditors, editorText, freshStart, runCommand } from './support/workbench';
import { page, screenshots } from './support/world';

const CUSTOMERS = ['Demo portal', 'Operations', 'Customers'];

function historyRows() {
  const p = page();
  const pane = p.locator('.part.sidebar .pane').filter({ has: p.locator('.pane-header', { hasText: /Record History/i }) });
  return { pane, rows: pane.locator('.monaco-list-row') };
}

describe('Journey: Record History', function () {
  this.timeout(240_000);

  beforeEach(async () => {
    await freshStart();
  });
  afterEach(() => closeAllEditors());

  it('lists the versions seen of the record in front, and shows a diff of an older one', async () => {
    const shot = screenshots('record-history');
    await openRecordRow(await showView(CUSTOMERS, '1'), 'Acme Corporation');
    await changeRecordAsAnotherUser('101', '1', { f4: '555 0199' });
    // A document read again once its copy is no longer fresh.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await runCommand('File: Revert File');
    await eventually(editorText, (text) => text.includes('555 0199'), 'the document to show the other user’s change');

    await runCommand('Portal: Show Record History');
    const { pane, rows } = historyRows();
    await eventually(
      () => rows.count(),
      (count) => count >= 2,
      'two versions in Record History',
    );
    const labels = await rows.locator('.label-name').allTextContents();
    assert.deepEqual(labels.slice(0, 2), ['Opened', 'Opened'], `the versions, newest first: ${JSON.stringify(labels)}`);
    assert.match(
      (await pane.locator('.pane-header').textContent()) ?? '',
      /the portal keeps none/,
      'the description says it is the only history',
    );
    await shot('record history');

    await rows.nth(1).click();
    // Both sides drawn: the seeded phone number on the left, the newer on the right.
    const diff = page().locator('.part.editor .monaco-diff-editor');
    await diff.locator('.editor.original .view-lines', { hasText: '(555) 010-2000' }).waitFor();
    await diff.locator('.editor.modified .view-lines', { hasText: '555 0199' }).waitFor();
    await eventually(
      async () => (await page().locator('.part.editor .tabs-container .tab.active').textContent()) ?? '',
      (title) => /↔ current/.test(title),
      'the diff tab',
    );
    await shot('diff against the current copy');
  });
});
