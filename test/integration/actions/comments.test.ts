// Comments on records, written in their own editor and sent to the emulator: from a record document with
// real keys, from the palette with the records of the view last viewed, refused up front when the portal
// says the app's comments plugin is off, and refused by the portal (403) with the text kept and offered
// for copying when the portal does not say.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from '../support/driver';
import { closeAllEditors, openRecord, requestMark, requestsSince } from '../support/documents';
import { emulatorControl } from '../support/emulator';
import { labelOf, item } from '../support/explorer';
import { testApi } from '../support/extension';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';
import { useConnectedPortal } from '../documents/support';
import { isShown, recordItemsOf, storedRecord } from './support';

function activeUri(): vscode.Uri | undefined {
  return vscode.window.activeTextEditor?.document.uri;
}

async function append(uri: string, text: string): Promise<void> {
  const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri);
  assert.ok(document, 'the comment editor is open');
  const edit = new vscode.WorkspaceEdit();
  edit.insert(document.uri, document.positionAt(document.getText().length), text);
  assert.equal(await vscode.workspace.applyEdit(edit), true);
}

/** Waits until the emulator took the (one) fault waiting: the request it slows is on its way. */
async function faultTaken(): Promise<void> {
  await waitFor(async () => (await emulatorControl<unknown[]>('GET', 'faults')).length === 0, {
    message: 'the request to reach the portal',
  });
}

async function typeIn(uri: string, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.insert(vscode.Uri.parse(uri), new vscode.Position(0, 0), text);
  assert.equal(await vscode.workspace.applyEdit(edit), true);
}

describe(`record actions: comments ${BROWSER_TAG}`, function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();
  const portal = useConnectedPortal();

  afterEach(async () => {
    await closeAllEditors();
    (await testApi()).catalog.refresh();
  });

  it('writes a multi-line comment in its editor on the record and sends it with Ctrl+Enter', async () => {
    await openRecord(portal(), '101', '3');
    const opened = await vscode.commands.executeCommand<string>('portal.addComment');
    const draft = vscode.Uri.parse(opened);
    assert.equal(draft.scheme, 'portal-comment');
    assert.equal(draft.path.split('/').pop(), 'Comment on record 3 of Customers');
    await waitFor(() => activeUri()?.toString() === opened, { message: 'the comment editor' });
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', draft);
    assert.deepEqual(
      lenses.map((lens) => lens.command?.title),
      ['$(send) Send Comment to record 3'],
    );
    await waitFor(() => driver.focusedWithin('.monaco-editor'), { message: 'the focus in the comment editor' });
    await driver.type('Called the customer.');
    await driver.press('Enter');
    await driver.type('They confirm the new address.');
    await waitFor(() => vscode.window.activeTextEditor?.document.getText().endsWith('address.'), { message: 'the typed text' });
    await waitFor(async () => (await driver.texts('.editor-actions .action-label[aria-label*="Send Comment"]')).length > 0, {
      message: 'Send Comment in the editor title',
    });
    await waitFor(async () => (await driver.texts('.codelens-decoration')).some((text) => text.includes('Send Comment to record 3')), {
      message: 'the Send Comment lens',
    });
    await driver.screenshot('comment-input');

    const mark = await requestMark();
    await driver.press('Control+Enter');
    await user().waitForMessage(/^Comment added to record 3 of Customers\.$/, { level: 'info' });
    // The record's document comes back to the front when the comment editor closes, and VS Code may read
    // it again then (a GET of the record): a read, not a second write, so only the writes are compared.
    const writes = (await requestsSince(mark)).filter((line) => line !== 'GET /api/v1/app/101/record/3 200');
    assert.deepEqual(writes, ['POST /api/v1/app/101/record/3/comment 200']);
    const { comments } = await storedRecord('101', '3');
    assert.deepEqual(
      comments.map((comment) => comment.comment),
      ['Called the customer.\nThey confirm the new address.'],
    );
    await waitFor(() => !isShown(draft), { message: "the sent comment's editor to close" });
  });

  it('offers the records of the view last viewed when run from the palette with no record', async () => {
    const records = await recordItemsOf(portal(), 'Operations', 'Customers', '101', '2', 'Gold customers');
    const label = labelOf(await item(records[0]));
    const recordId = (records[0] as { recordId: string }).recordId;
    user().answerQuickPick(label, /Add Comment \| Which record\?/);
    const opened = await vscode.commands.executeCommand<string>('portal.addComment');
    assert.equal(vscode.Uri.parse(opened).path.split('/').pop(), `Comment on record ${recordId} of Customers`);
    const offered = user().prompts.find((prompt) => prompt.kind === 'quickPick')?.items ?? [];
    assert.ok(offered.includes('Gold customers'), `the view is named among ${JSON.stringify(offered)}`);
    assert.equal(offered.filter((offer) => !offer.startsWith('$(')).length, records.length + 1, 'every record of the view, and its name');

    await typeIn(opened, 'Gold tier confirmed.');
    assert.equal(await vscode.commands.executeCommand('portal.sendComment'), true);
    assert.deepEqual(
      (await storedRecord('101', recordId)).comments.map((comment) => comment.comment),
      ['Gold tier confirmed.'],
    );
  });

  it('keeps a saved draft when its editor closes, and opens it again', async () => {
    const target = { portalId: portal(), appId: '102', recordId: '2' };
    const opened = await vscode.commands.executeCommand<string>('portal.addComment', target);
    await typeIn(opened, 'Half-written thought');
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened);
    assert.ok(document);
    assert.equal(await document.save(), true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => !isShown(opened), { message: 'the draft to close' });
    const mark = await requestMark();
    assert.equal(await vscode.commands.executeCommand<string>('portal.addComment', target), opened);
    assert.equal(vscode.window.activeTextEditor?.document.getText(), 'Half-written thought');
    assert.deepEqual(await requestsSince(mark), [], 'nothing sent');
  });

  it('refuses an empty comment and sends nothing', async () => {
    const opened = await vscode.commands.executeCommand<string>('portal.addComment', { portalId: portal(), appId: '101', recordId: '2' });
    await typeIn(opened, '  \n ');
    const mark = await requestMark();
    await vscode.commands.executeCommand('portal.sendComment', vscode.Uri.parse(opened));
    await user().waitForMessage(/^Write the comment on record 2 first: it is empty\.$/, { level: 'error' });
    assert.deepEqual(await requestsSince(mark), []);
    assert.ok(isShown(opened));
  });

  it('says up front that comments are off for an app whose plugin the portal says is off', async () => {
    const mark = await requestMark();
    const opened = await vscode.commands.executeCommand('portal.addComment', { portalId: portal(), appId: '202', recordId: '1' });
    assert.equal(opened, undefined);
    await user().waitForMessage(
      /^Comments are not enabled for this app in the portal \(Knowledge base\)\. A portal administrator can turn on its comments plugin\.$/,
      {
        level: 'error',
      },
    );
    assert.deepEqual(
      (await requestsSince(mark)).filter((request) => request.includes('/comment')),
      [],
    );
    assert.equal(activeUri()?.scheme === 'portal-comment', false, 'no comment editor opened');
  });

  it('keeps the text and offers to copy it when the portal refuses comments on the app', async () => {
    // A portal that does not say which apps have the comments plugin: only its answer tells.
    await emulatorControl('POST', 'config', { appFlags: false });
    const api = await testApi();
    const linesBefore = api.logMark();
    api.catalog.refresh();
    const opened = await vscode.commands.executeCommand<string>('portal.addComment', { portalId: portal(), appId: '202', recordId: '2' });
    assert.ok(opened, 'the editor opens: the portal did not say the plugin is off');
    const text = 'Reviewed the article.\nSection 2 needs a new screenshot.';
    await typeIn(opened, text);
    user().answerMessage(
      'Copy Comment',
      /^Comments are not enabled for this app in the portal \(Knowledge base\)\. Your comment on record 2 is kept in its editor\.$/,
    );
    const mark = await requestMark();
    assert.equal(await vscode.commands.executeCommand('portal.sendComment', vscode.Uri.parse(opened)), false);
    assert.deepEqual(await requestsSince(mark), ['POST /api/v1/app/202/record/2/comment 403']);
    await waitFor(() => user().clipboard.includes(text), { message: 'the comment on the clipboard' });
    await user().waitForMessage(/^The comment is on the clipboard\.$/, { level: 'info' });
    assert.ok(isShown(opened), 'the comment editor stays open');
    assert.equal(vscode.workspace.textDocuments.find((document) => document.uri.toString() === opened)?.getText(), text);
    assert.deepEqual((await storedRecord('202', '2')).comments, []);
    const logged = api.logLinesSince(linesBefore).filter((line) => line.includes('portal.sendComment'));
    assert.equal(logged.length, 1, 'one log line');
    assert.match(logged[0], /comments plugin/i, "the portal's own words are in the log");
    assert.ok(!logged[0].includes('Section 2'), 'the comment is not');
  });

  it('sends a comment once when Send Comment runs again while it is on its way', async () => {
    const opened = await vscode.commands.executeCommand<string>('portal.addComment', { portalId: portal(), appId: '101', recordId: '2' });
    await typeIn(opened, 'Sent once.');
    await emulatorControl('POST', 'faults', { path: '/record/2/comment$', method: 'POST', latency_ms: 1500 });
    const mark = await requestMark();
    const first = vscode.commands.executeCommand('portal.sendComment', vscode.Uri.parse(opened));
    await faultTaken();
    // A second Ctrl+Enter while the first is on its way.
    const second = vscode.commands.executeCommand('portal.sendComment', vscode.Uri.parse(opened));
    await Promise.all([first, second]);
    assert.deepEqual(
      (await requestsSince(mark)).filter((line) => line.startsWith('POST')),
      ['POST /api/v1/app/101/record/2/comment 200'],
    );
    await user().waitForMessage(/^The comment on record 2 is being sent already\.$/, { level: 'info' });
    assert.deepEqual(
      (await storedRecord('101', '2')).comments.map((comment) => comment.comment),
      ['Sent once.'],
    );
  });

  it('keeps only the text typed while the comment was on its way: sending again posts only that', async () => {
    const opened = await vscode.commands.executeCommand<string>('portal.addComment', { portalId: portal(), appId: '101', recordId: '2' });
    await typeIn(opened, 'First part.');
    await emulatorControl('POST', 'faults', { path: '/record/2/comment$', method: 'POST', latency_ms: 1500 });
    const sending = vscode.commands.executeCommand('portal.sendComment', vscode.Uri.parse(opened));
    await faultTaken();
    await append(opened, '\nSecond part.');
    assert.equal(await sending, true);
    assert.equal(vscode.workspace.textDocuments.find((document) => document.uri.toString() === opened)?.getText(), 'Second part.');
    await user().waitForMessage(/^Comment added to record 2 of Customers\. Its editor keeps what you typed while it was being sent\.$/, {
      level: 'info',
    });
    assert.equal(await vscode.commands.executeCommand('portal.sendComment', vscode.Uri.parse(opened)), true);
    assert.deepEqual(
      (await storedRecord('101', '2')).comments.map((comment) => comment.comment),
      ['First part.', 'Second part.'],
    );
  });
});
