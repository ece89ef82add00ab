// Attachments against the emulator: a binary file up and down with identical bytes, the portal's file
// name proposed (made safe), text and images opened in VS Code, a record without attachment, the size
// limit (nothing sent), and Cancel on the progress notification (nothing stored).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RecordTarget } from '../../../src/model/targets';
import { BROWSER_TAG, driver } from '../support/driver';
import { closeAllEditors, requestMark, requestsSince } from '../support/documents';
import { emulatorControl } from '../support/emulator';
import { testApi } from '../support/extension';
import { clearNotifications, clickNotificationAction } from '../support/notifications';
import { useScriptedPrompter } from '../support/prompter';
import { sleep, waitFor } from '../support/wait';
import { workspaceRoot } from '../support/workspace';
import { useConnectedPortal } from '../documents/support';
import { checkerboardPng, isShown, notificationShown, randomBytes, storedRecord, withSetting, workspaceBytes } from './support';

describe(`record actions: attachments ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  const user = useScriptedPrompter();
  const portal = useConnectedPortal();
  const record = (recordId: string, appId = '101'): RecordTarget => ({ portalId: portal(), appId, recordId });

  afterEach(async () => {
    await emulatorControl('DELETE', 'faults');
    await clearNotifications();
    await closeAllEditors();
  });

  /** Answers the save dialog with `destination` and keeps the options it was opened with. */
  function answerSave(destination: vscode.Uri): vscode.SaveDialogOptions[] {
    const seen: vscode.SaveDialogOptions[] = [];
    const scripted = user();
    const original = scripted.saveDialog.bind(scripted);
    scripted.saveDialog = async (options) => {
      seen.push(options);
      return original(options);
    };
    scripted.answerSaveDialog(destination);
    return seen;
  }

  it("uploads a binary file and downloads the very same bytes under the portal's file name", async () => {
    const bytes = randomBytes(300 * 1024);
    const source = await workspaceBytes('upload/random.bin', bytes);
    user().answerOpenDialog([source]);
    let mark = await requestMark();
    assert.equal(await vscode.commands.executeCommand('portal.addAttachment', record('4')), source.toString());
    await user().waitForMessage(/^Attached random\.bin \(300 KB\) to record 4 of Customers\.$/, { level: 'info' });
    // The list of sites may come first: the app's name for the message, once per catalog.
    assert.deepEqual(
      (await requestsSince(mark)).filter((request) => request.includes('/record/')),
      ['POST /api/v1/app/101/record/4/attachment 200'],
    );
    const [stored] = (await storedRecord('101', '4')).attachments;
    assert.deepEqual([stored.file_name, stored.content_type, stored.size], ['random.bin', 'application/octet-stream', bytes.length]);

    const destination = vscode.Uri.joinPath(workspaceRoot(), 'download', 'copy.bin');
    const dialogs = answerSave(destination);
    mark = await requestMark();
    assert.equal(await vscode.commands.executeCommand('portal.downloadAttachment', record('4')), destination.toString());
    assert.deepEqual(await requestsSince(mark), ['GET /api/v1/app/101/record/4/attachment 200']);
    assert.equal(dialogs[0]?.defaultUri?.path.split('/').pop(), 'random.bin', "the portal's file name is proposed");
    const downloaded = await vscode.workspace.fs.readFile(destination);
    assert.equal(downloaded.length, bytes.length);
    assert.ok(Buffer.from(downloaded).equals(Buffer.from(bytes)), 'identical bytes');
    await user().waitForMessage(/^Saved random\.bin \(300 KB\), the attachment of record 4, to download\/copy\.bin\.$/, { level: 'info' });
  });

  it("proposes a portal's file name without the characters a file system refuses", async () => {
    const api = await testApi();
    await api.portals.client(portal()).addAttachment('101', '7', {
      fileName: 'minutes: 3|4?.pdf',
      contentType: 'application/pdf',
      content: new Uint8Array([37, 80, 68, 70]),
    });
    const dialogs = answerSave(vscode.Uri.joinPath(workspaceRoot(), 'download', 'minutes.pdf'));
    await vscode.commands.executeCommand('portal.downloadAttachment', record('7'));
    assert.equal(dialogs[0]?.defaultUri?.path.split('/').pop(), 'minutes_ 3_4_.pdf');
  });

  it('opens a text attachment in a read-only editor instead of saving it', async () => {
    const source = await workspaceBytes('upload/notes.txt', new TextEncoder().encode('Delivery on Monday.\nGate 4.\n'));
    user().answerOpenDialog([source]);
    await vscode.commands.executeCommand('portal.addAttachment', record('8'));
    assert.equal((await storedRecord('101', '8')).attachments[0]?.content_type, 'text/plain');
    user().answerQuickPick('Open in Editor', /notes\.txt \(28 bytes\), the attachment of record 8/);
    const opened = await vscode.commands.executeCommand<string>('portal.downloadAttachment', record('8'));
    const uri = vscode.Uri.parse(opened);
    assert.equal(uri.scheme, 'portal-attachment');
    const editor = await waitFor(
      () => (vscode.window.activeTextEditor?.document.uri.toString() === opened ? vscode.window.activeTextEditor : undefined),
      { message: "the attachment's editor" },
    );
    assert.equal(editor.document.getText(), 'Delivery on Monday.\nGate 4.\n');
    assert.equal(vscode.workspace.fs.isWritableFileSystem('portal-attachment'), false, 'read-only');
    // Kept in memory only while a tab shows it.
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(() => !isShown(uri), { message: "the attachment's tab to close" });
    await waitFor(
      async () => {
        try {
          await vscode.workspace.fs.stat(uri);
          return false;
        } catch {
          return true;
        }
      },
      { message: 'the attachment to be forgotten' },
    );
  });

  it('opens an image attachment in a panel of its own', async () => {
    const source = await workspaceBytes('upload/pixel.png', checkerboardPng(96, 64));
    user().answerOpenDialog([source]);
    await vscode.commands.executeCommand('portal.addAttachment', record('9'));
    user().answerQuickPick('Open in Editor', /pixel\.png \(235 bytes\), the attachment of record 9/);
    await vscode.commands.executeCommand('portal.downloadAttachment', record('9'));
    const panel = driver.webview('pixel.png');
    await panel.waitFor('img');
    // Decoded from the bytes the portal sent: the same picture, at its size.
    await waitFor(async () => (await panel.evaluate<number>('document.querySelector("img").naturalWidth')) === 96, {
      message: 'the image to be decoded',
    });
    assert.equal(await panel.evaluate<number>('document.querySelector("img").naturalHeight'), 64);
    assert.equal(await panel.text('h1'), 'pixel.png · 235 bytes');
    await driver.screenshot('attachment-image');
  });

  it('says a record has no attachment and writes no file', async () => {
    const mark = await requestMark();
    assert.equal(await vscode.commands.executeCommand('portal.downloadAttachment', record('5')), undefined);
    await user().waitForMessage(/^Record 5 has no attachment\.$/, { level: 'info' });
    assert.deepEqual(await requestsSince(mark), ['GET /api/v1/app/101/record/5/attachment 404']);
    assert.equal(user().prompts.filter((prompt) => prompt.kind === 'saveDialog').length, 0, 'no save dialog');
    assert.equal(user().messagesOf('error').length, 0);
  });

  it('refuses a file over the size limit before sending anything, saying the limit', async () => {
    const restore = await withSetting('portal.attachments.maxUploadBytes', 100 * 1024);
    try {
      const source = await workspaceBytes('upload/large.bin', randomBytes(150 * 1024));
      user().answerOpenDialog([source]);
      const mark = await requestMark();
      await vscode.commands.executeCommand('portal.addAttachment', record('10'));
      await user().waitForMessage(
        /^large\.bin is 150 KB, over the 100 KB limit for attachments \(setting portal\.attachments\.maxUploadBytes\)\. Nothing was sent\.$/,
        {
          level: 'error',
        },
      );
      assert.deepEqual(await requestsSince(mark), []);
      assert.deepEqual((await storedRecord('101', '10')).attachments, []);
    } finally {
      await restore();
    }
  });

  it('stops the upload when Cancel is pressed on its progress, and the portal keeps nothing', async () => {
    // 20 MB: more than the connection buffers while the portal waits, so Cancel lands mid-upload.
    const latencyMs = 8000;
    const source = await workspaceBytes('upload/big.bin', randomBytes(20 * 1024 * 1024));
    await emulatorControl('POST', 'faults', { path: '/attachment$', method: 'POST', latency_ms: latencyMs });
    user().answerOpenDialog([source]);
    const mark = await requestMark();
    const started = Date.now();
    const command = vscode.commands.executeCommand('portal.addAttachment', record('11'));
    await notificationShown(/^Attaching big\.bin to record 11: [\d.]+ MB of 20 MB$/);
    await driver.screenshot('attachment-progress');
    await clickNotificationAction(/Attaching big\.bin to record 11/, 'Cancel');
    assert.equal(await command, undefined, 'the command ends, cancelled');
    // The portal reads the body only after its injected latency: give it that time to (not) store anything.
    await sleep(Math.max(0, started + latencyMs + 1000 - Date.now()));
    assert.deepEqual((await storedRecord('101', '11')).attachments, [], 'nothing stored');
    assert.deepEqual(
      (await requestsSince(mark)).filter((request) => / 2\d\d$/.test(request)),
      [],
      'no upload succeeded',
    );
    assert.deepEqual(
      user().messages.filter((message) => message.level !== 'info'),
      [],
      'a cancel is silent',
    );
  });
});
