// New-record documents whose in-memory entry is gone: a document VS Code restores after a reload (this
// window never opened its address), or one whose entry was dropped while it stayed open (a change of its
// language closes and reopens it for extensions). Their text must not be lost, their record must be
// created once, and they must reopen under the record's id like any new record.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RecordChange } from '../../../src/catalog/recordEvents';
import { emulatorControl } from '../support/emulator';
import { emulatorRecord, recordUriOf, requestMark, requestsSince, setField } from '../support/documents';
import { testApi } from '../support/extension';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor, waitForEvent } from '../support/wait';
import { useConnectedPortal } from './support';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A new-record address as "Portal: New Record" makes them, with a number this window has not given out. */
function restoredAddress(portalId: string, appId: string, name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: 'portal', authority: portalId, path: `/${appId}/new/${name}` });
}

async function posts(mark: number): Promise<string[]> {
  return (await requestsSince(mark)).filter((request) => request.startsWith('POST '));
}

function isOpenInTab(uri: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()),
  );
}

/** Saves a new-record document (Ctrl+S), and waits for the record it creates to open under its id. */
async function saveCreating(document: vscode.TextDocument, portalId: string): Promise<{ change: RecordChange; mark: number }> {
  const api = await testApi();
  const created = waitForEvent(api.recordEvents.onDidChange, (change: RecordChange) => change.kind === 'created');
  const mark = await requestMark();
  assert.equal(await document.save(), true);
  const change = await created;
  const reopened = recordUriOf(portalId, '101', change.recordId);
  await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() === reopened.toString(), {
    message: `the editor of ${reopened.toString()}`,
  });
  return { change, mark };
}

describe('records as documents: new records whose entry is gone', () => {
  const user = useScriptedPrompter();
  const portal = useConnectedPortal();

  it('creates a record once from a new document whose language changed, and reopens it under its id', async () => {
    const opened = await vscode.commands.executeCommand<string>('portal.newRecord', { portalId: portal(), appId: '101' });
    let document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened), {
      message: 'the new document',
    });
    await setField(document, 'f2', 'Language Change Ltd');
    // VS Code tells extensions that a document whose language changes closed, and opened again.
    document = await vscode.languages.setTextDocumentLanguage(document, 'jsonc');
    assert.equal(document.isDirty, true, 'the typed text is still unsaved');

    const { change, mark } = await saveCreating(document, portal());
    await waitFor(() => !isOpenInTab(document.uri), { message: 'the new document to close' });
    // (The emulator's ids start again at each reset: the record's own copy says what was created.)
    assert.equal((await emulatorRecord('101', change.recordId)).data.f2, 'Language Change Ltd');
    assert.deepEqual(await posts(mark), ['POST /api/v1/app/101/record/ 200'], 'exactly one record created');
  });

  it('saves a new document with no entry behind it once: a second save sends nothing, a changed one is refused', async () => {
    const opened = await vscode.commands.executeCommand<string>('portal.newRecord', { portalId: portal(), appId: '101' });
    const document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened), {
      message: 'the new document',
    });
    await setField(document, 'f2', 'Saved Twice Ltd');
    await vscode.languages.setTextDocumentLanguage(document, 'jsonc');
    // VS Code's save is a stat and a writeFile of the document's address: twice, as two Ctrl+S would.
    const text = encoder.encode(document.getText());
    const mark = await requestMark();
    await vscode.workspace.fs.writeFile(document.uri, text);
    await vscode.workspace.fs.writeFile(document.uri, text);
    assert.deepEqual(await posts(mark), ['POST /api/v1/app/101/record/ 200'], 'the same text saved again creates nothing');
    await assert.rejects(
      Promise.resolve(
        vscode.workspace.fs.writeFile(document.uri, encoder.encode(document.getText().replace('Saved Twice Ltd', 'Saved Thrice Ltd'))),
      ),
      /created already as record \d+/,
    );
    assert.deepEqual(await posts(mark), ['POST /api/v1/app/101/record/ 200'], 'a changed text is refused, not created again');
  });

  it("reads a new-record address this window never opened (a document restored after a reload) as the app's new record, and creates it once under that address", async () => {
    const uri = restoredAddress(portal(), '101', 'new-record-907.json');
    const stat = await vscode.workspace.fs.stat(uri);
    assert.equal(stat.type, vscode.FileType.File);
    assert.deepEqual(
      JSON.parse(decoder.decode(await vscode.workspace.fs.readFile(uri))),
      { $schema: `portal://${portal()}/101/schema/record.json`, f2: '' },
      'the required fields, empty',
    );

    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    const banner = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    assert.deepEqual(
      banner.map((lens) => lens.command?.title),
      ['$(new-file) New record of app 101: saving creates it'],
    );
    await setField(document, 'f2', 'Restored Industries');
    const { change, mark } = await saveCreating(document, portal());
    assert.equal((await emulatorRecord('101', change.recordId)).data.f2, 'Restored Industries');
    assert.deepEqual(await posts(mark), ['POST /api/v1/app/101/record/ 200']);
  });

  it('creates a restored new-draft document as a draft, as chosen before the reload', async () => {
    const api = await testApi();
    const uri = restoredAddress(portal(), '102', 'new-draft-908.json');
    const text = JSON.stringify(
      { $schema: `portal://${portal()}/102/schema/record.json`, f11: 'Restored draft', f15: '01-04-2026', f17: '12' },
      null,
      2,
    );
    const created = waitForEvent(api.recordEvents.onDidChange, (change: RecordChange) => change.kind === 'created');
    const mark = await requestMark();
    await vscode.workspace.fs.writeFile(uri, encoder.encode(text));
    assert.deepEqual(await posts(mark), ['POST /api/v1/app/102/record/ 200']);
    const record = await emulatorRecord('102', (await created).recordId);
    assert.deepEqual([record.draft, record.data.f11], [true, 'Restored draft']);
    assert.equal(decoder.decode(await vscode.workspace.fs.readFile(uri)), text, 'the address serves what was saved');
  });

  it('keeps text typed while a new record is being created: the new-record tab stays, with it', async () => {
    const api = await testApi();
    const opened = await vscode.commands.executeCommand<string>('portal.newRecord', { portalId: portal(), appId: '101' });
    const document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened), {
      message: 'the new document',
    });
    await setField(document, 'f2', 'Typed During Save Ltd');
    await emulatorControl('POST', 'faults', { path: '/app/101/record/$', method: 'POST', latency_ms: 1500 });
    const created = waitForEvent(api.recordEvents.onDidChange, (change: RecordChange) => change.kind === 'created');
    const saving = document.save();
    await waitFor(async () => (await emulatorControl<unknown[]>('GET', 'faults')).length === 0, {
      message: 'the create to reach the portal',
    });
    const typed = new vscode.WorkspaceEdit();
    typed.insert(document.uri, document.positionAt(document.getText().lastIndexOf('}')), '  ,"f3": "typed later"\n');
    assert.equal(await vscode.workspace.applyEdit(typed), true);
    // VS Code resolves false here and shows the document as saved, with the text typed during the save in it.
    await saving;
    const change = await created;
    const reopened = recordUriOf(portal(), '101', change.recordId);
    await waitFor(
      () =>
        vscode.window.tabGroups.all.some((group) =>
          group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === reopened.toString()),
        ),
      { message: 'the created record open' },
    );
    assert.ok(isOpenInTab(document.uri), 'the new-record tab stays');
    assert.ok(document.getText().includes('typed later'), 'the text typed during the save is kept');
    await user().waitForMessage(
      new RegExp(`^Record ${change.recordId} created\\. Your later changes are still in the new-record tab\\.$`),
      { level: 'info' },
    );
  });

  it('lost answer, saved again: one POST, and the save says the record may exist', async () => {
    const opened = await vscode.commands.executeCommand<string>('portal.newRecord', { portalId: portal(), appId: '101' });
    const document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened), {
      message: 'the new document',
    });
    await setField(document, 'f2', 'Lost Answer Ltd');
    await emulatorControl('POST', 'faults', { path: '/app/101/record/$', method: 'POST', lose_answer: true });
    const text = encoder.encode(document.getText());
    const mark = await requestMark();
    const mayExist =
      /The portal may have created this record already \(its answer was lost\): look for it in Customers before saving again\./;
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(document.uri, text)), mayExist);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(document.uri, text)), mayExist);
    assert.deepEqual((await posts(mark)).length, 1, 'one POST');
  });
});
