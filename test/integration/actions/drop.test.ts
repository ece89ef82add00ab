// Files dropped on a record in the Portal explorer. Drops from the operating system cannot be made in
// code-server driven by Chromium here, so these tests call the controller's handleDrop with a
// DataTransfer built as VS Code builds one: the public interface VS Code calls on a drop.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExplorerNode } from '../../../src/tree/nodes';
import { closeAllEditors, requestMark, requestsSince } from '../support/documents';
import { testApi } from '../support/extension';
import { useScriptedPrompter } from '../support/prompter';
import { useConnectedPortal } from '../documents/support';
import { recordItemsOf, storedRecord, workspaceBytes } from './support';

/** A dropped file of the operating system: a name and bytes, no URI VS Code can read. */
class DroppedFile extends vscode.DataTransferItem {
  constructor(
    private readonly name: string,
    private readonly bytes: Uint8Array,
  ) {
    super('');
  }

  override asFile(): vscode.DataTransferFile {
    return { name: this.name, uri: undefined, data: async () => this.bytes };
  }
}

const noCancel = new vscode.CancellationTokenSource().token;

describe('record actions: files dropped on a record', function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();
  const portal = useConnectedPortal();
  let records: ExplorerNode[] = [];

  beforeEach(async () => {
    records = await recordItemsOf(portal(), 'Operations', 'Orders', '102', '3', 'All orders');
  });
  afterEach(closeAllEditors);

  const recordId = (node: ExplorerNode): string => (node as { recordId: string }).recordId;

  it("attaches files dragged from VS Code's explorer (text/uri-list) after a confirmation", async () => {
    const first = await workspaceBytes('drop/invoice.pdf', new Uint8Array([37, 80, 68, 70, 45, 49]));
    const second = await workspaceBytes('drop/photo.jpg', new Uint8Array([255, 216, 255, 224]));
    const transfer = new vscode.DataTransfer();
    transfer.set('text/uri-list', new vscode.DataTransferItem(`${first.toString()}\r\n${second.toString()}`));
    const target = records[1];
    user().answerMessage(
      'Attach',
      new RegExp(`^Attach 2 files \\(invoice\\.pdf, photo\\.jpg\\) to record ${recordId(target)} of Orders\\?`),
    );
    const mark = await requestMark();
    await (await testApi()).attachmentDrop.handleDrop(target, transfer, noCancel);
    assert.deepEqual(
      (await requestsSince(mark)).filter((request) => request.includes('/record/')),
      [`POST /api/v1/app/102/record/${recordId(target)}/attachment 200`, `POST /api/v1/app/102/record/${recordId(target)}/attachment 200`],
    );
    const stored = (await storedRecord('102', recordId(target))).attachments.map((attachment) => [
      attachment.file_name,
      attachment.content_type,
      attachment.size,
    ]);
    assert.deepEqual(stored, [
      ['invoice.pdf', 'application/pdf', 6],
      ['photo.jpg', 'image/jpeg', 4],
    ]);
  });

  it("attaches a file of the operating system's drag from its bytes", async () => {
    const transfer = new vscode.DataTransfer();
    transfer.set('files', new DroppedFile('scan.png', new Uint8Array([137, 80, 78, 71])));
    const target = records[0];
    user().answerMessage('Attach', /^Attach scan\.png to record/);
    await (await testApi()).attachmentDrop.handleDrop(target, transfer, noCancel);
    await user().waitForMessage(new RegExp(`^Attached scan\\.png \\(4 bytes\\) to record ${recordId(target)} of Orders\\.$`), {
      level: 'info',
    });
    assert.deepEqual(
      (await storedRecord('102', recordId(target))).attachments.map((attachment) => attachment.file_name),
      ['scan.png'],
    );
  });

  it('attaches nothing when the drop is not confirmed, or lands elsewhere than on a record', async () => {
    const file = await workspaceBytes('drop/notes.txt', new TextEncoder().encode('x'));
    const transfer = new vscode.DataTransfer();
    transfer.set('text/uri-list', new vscode.DataTransferItem(file.toString()));
    const api = await testApi();
    const mark = await requestMark();
    user().answerMessage(undefined, /^Attach notes\.txt/);
    await api.attachmentDrop.handleDrop(records[2], transfer, noCancel);
    const view = records[2].parent;
    await api.attachmentDrop.handleDrop(view, transfer, noCancel);
    await api.attachmentDrop.handleDrop(undefined, transfer, noCancel);
    assert.deepEqual(await requestsSince(mark), []);
    assert.deepEqual((await storedRecord('102', recordId(records[2]))).attachments, []);
  });
});
