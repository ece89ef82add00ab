// Journey (f): a record's comment and attachment, as a person adds them. A comment written in its own
// editor (from the record's context menu in the Portal view) and sent with Ctrl+Enter; a file of the
// workspace attached through the record editor's title button and VS Code's open dialog; the attachment
// downloaded from the tree's context menu through the save dialog, with the very same bytes on disk.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, recordState, requestMark, requestsSince } from './support/emulator';
import { contextMenu, openRecordRow, showView } from './support/tree';
import { answerFileDialog, freshStart, closeAllEditors, notification } from './support/workbench';
import { page, screenshots, world } from './support/world';

const CUSTOMERS = ['Demo portal', 'Operations', 'Customers'];
const RECORD = '/api/v1/app/101/record/3';

async function writesSince(mark: number): Promise<string[]> {
  return (await requestsSince(mark))
    .filter((request) => request.method !== 'GET' && request.path.startsWith(RECORD))
    .map((request) => `${request.method} ${request.path} ${request.status}`);
}

describe('Journey (f): a comment and an attachment', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => closeAllEditors());

  it('comment from the tree sent with Ctrl+Enter; a file attached from the editor title; downloaded with the same bytes', async () => {
    const shot = screenshots('f-comment-attachment');
    const view = await showView(CUSTOMERS, '1');
    const row = [...view, 'Initech'];
    await openRecordRow(view, 'Initech');
    await shot('record open');

    // A comment, written in its own editor and sent with Ctrl+Enter.
    let mark = await requestMark();
    await contextMenu(row, 'Add Comment…');
    const commentTab = page().locator('.part.editor .tabs-container .tab', { hasText: /Comment on record 3/ });
    await commentTab.waitFor();
    await page().locator('.part.editor .editor-instance .view-lines').first().click();
    await page().keyboard.type('Called the customer.');
    await page().keyboard.press('Enter');
    await page().keyboard.type('They confirm the new address.');
    await shot('comment typed');
    await page().keyboard.press('Control+Enter');
    await notification(/^Comment added to record 3 of Customers\./);
    await commentTab.waitFor({ state: 'detached' });
    await shot('comment sent');
    const commented = await recordState('101', '3');
    assert.deepEqual(
      commented.comments.map((comment) => comment.comment),
      ['Called the customer.\nThey confirm the new address.'],
      'the portal holds the comment as typed',
    );
    assert.deepEqual(await writesSince(mark), [`POST ${RECORD}/comment 200`], 'one comment sent');

    // A file of the workspace, attached through the record editor's title button and the open dialog.
    const bytes = randomBytes(96 * 1024);
    const source = join(world().profile.workspace, 'site-survey.bin');
    writeFileSync(source, bytes);
    mark = await requestMark();
    await page().locator('.part.editor .editor-actions .action-label[aria-label^="Add Attachment"]').click();
    await answerFileDialog(/Attach a file to record 3/, (value) => value.endsWith('/workspace/'), 'site-survey.bin', source, 'Attach');
    await notification(/^Attached site-survey\.bin \(96 KB\) to record 3 of Customers\./);
    await shot('attached');
    const attached = await eventually(
      () => recordState('101', '3'),
      (state) => state.attachments.length === 1,
      'the attachment in the portal',
    );
    assert.deepEqual([attached.attachments[0].file_name, attached.attachments[0].size], ['site-survey.bin', bytes.length]);
    assert.deepEqual(await writesSince(mark), [`POST ${RECORD}/attachment 200`], 'one upload');

    // Downloaded again from the tree, saved under another name through the save dialog.
    const copy = join(world().profile.workspace, 'site-survey-copy.bin');
    await contextMenu(row, 'Download Attachment…');
    await answerFileDialog(/attachment of record 3/i, (value) => value.endsWith('/workspace/site-survey.bin'), 'site-survey-copy', copy);
    await notification(/^Saved site-survey\.bin \(96 KB\), the attachment of record 3, to site-survey-copy\.bin\./);
    await shot('downloaded');
    assert.ok(readFileSync(copy).equals(bytes), 'the downloaded file has the very bytes attached');
  });
});
