// Drafts and publishing, deleting to the trash, creating from a new document, and what the JSON language
// offers in a record document (field ids and choice ids, from the app's schema).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RecordChange } from '../../../src/catalog/recordEvents';
import { BROWSER_TAG, driver } from '../support/driver';
import { emulatorRecord, fieldsOf, openRecord, recordUriOf, requestMark, requestsSince, setField, valueRange } from '../support/documents';
import { testApi } from '../support/extension';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor, waitForEvent } from '../support/wait';
import { useConnectedPortal } from './support';

function lensTitles(lenses: vscode.CodeLens[] | undefined): string[] {
  return (lenses ?? []).map((lens) => lens.command?.title ?? '');
}

async function codeLenses(uri: vscode.Uri): Promise<string[]> {
  return lensTitles(await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri));
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

async function completionsAt(document: vscode.TextDocument, offset: number): Promise<vscode.CompletionItem[]> {
  await vscode.extensions.getExtension('vscode.json-language-features')?.activate();
  // The JSON language reads the schema once the document is open: ask until it has.
  return waitFor(
    async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        document.uri,
        document.positionAt(offset),
      );
      return list.items.some((item) => item.kind === vscode.CompletionItemKind.Property || item.kind === vscode.CompletionItemKind.Value)
        ? list.items
        : undefined;
    },
    { message: 'completion from the schema', timeoutMs: 15_000 },
  );
}

/** The badges (a letter drawn by CSS) on the tab in front, as the workbench draws them. */
function activeTabBadges(): Promise<string[]> {
  return driver.evaluate<string[]>(
    `[...document.querySelectorAll('.part.editor .tabs-container .tab.active *')].map((node) => getComputedStyle(node, '::after').content).filter((content) => /^"[A-Z]"$/.test(content))`,
  );
}

describe('records as documents: drafts, delete, create, completion', () => {
  const user = useScriptedPrompter();
  const portal = useConnectedPortal();

  it('shows a draft as such and publishes it with draft "0"', async () => {
    const document = await openRecord(portal(), '102', '7');
    const api = await testApi();
    assert.equal(api.documents.isDraft(document.uri), true);
    assert.deepEqual(await codeLenses(document.uri), ['$(edit) Draft: not published yet', 'Publish']);
    const mark = await requestMark();
    const published = waitForEvent(
      api.recordEvents.onDidChange,
      (change: RecordChange) => change.recordId === '7' && change.kind === 'updated',
    );
    await vscode.commands.executeCommand('portal.publishRecord', document.uri);
    await published;
    assert.deepEqual(
      (await requestsSince(mark)).filter((request) => request.includes('/record')),
      ['PUT /api/v1/app/102/record/7 200'],
      'one PUT (draft "0")',
    );
    assert.equal((await emulatorRecord('102', '7')).draft, false);
    assert.equal(api.documents.isDraft(document.uri), false);
    assert.deepEqual(await codeLenses(document.uri), []);
    await user().waitForMessage(/Record 7 of Orders is published\./, { level: 'info' });
  });

  it(`badges a draft's tab with D until it is published ${BROWSER_TAG}`, async () => {
    const document = await openRecord(portal(), '102', '7');
    await waitFor(async () => (await activeTabBadges()).includes('"D"'), { message: 'the D badge on the draft' });
    await vscode.commands.executeCommand('portal.publishRecord', document.uri);
    await user().waitForMessage(/Record 7 of Orders is published\./, { level: 'info' });
    await waitFor(async () => !(await activeTabBadges()).includes('"D"'), { message: 'the badge gone once published' });
  });

  it(`never shows draft actions for a record of an app without Draft mode ${BROWSER_TAG}`, async () => {
    const draft = await openRecord(portal(), '102', '8');
    await waitFor(async () => (await driver.texts('.editor-actions .action-label[aria-label*="Publish Draft"]')).length > 0, {
      message: 'Publish in the title of a draft',
    });
    await waitFor(async () => (await driver.texts('.codelens-decoration')).some((text) => text.includes('Draft')), {
      message: 'the draft banner',
    });
    await driver.screenshot('record-draft');
    const published = await openRecord(portal(), '101', '1');
    assert.deepEqual(await codeLenses(published.uri), []);
    await waitFor(async () => (await driver.texts('.editor-actions .action-label[aria-label*="Publish Draft"]')).length === 0, {
      message: 'no Publish in the title of a Customers record',
    });
    assert.ok((await driver.texts('.editor-actions .action-label[aria-label*="Delete Record"]')).length > 0, 'Delete is there');
    assert.equal((await testApi()).documents.isDraft(draft.uri), true);
  });

  it('deletes after confirmation: DELETE, the editor closes, the record is in the trash', async () => {
    const document = await openRecord(portal(), '101', '5');
    await setField(document, 'f2', 'Unsaved change');
    user().answerMessage(
      'Delete',
      /Delete record 5 of Customers\? It moves to the portal's trash\. Your unsaved changes to it are discarded\./,
    );
    const api = await testApi();
    const deleted = waitForEvent(
      api.recordEvents.onDidChange,
      (change: RecordChange) => change.recordId === '5' && change.kind === 'deleted',
    );
    const mark = await requestMark();
    await vscode.commands.executeCommand('portal.deleteRecord', document.uri);
    await deleted;
    assert.ok((await requestsSince(mark)).includes('DELETE /api/v1/app/101/record/5 200'));
    assert.equal((await emulatorRecord('101', '5')).trashed, true);
    await user().waitForMessage(/^Record 5 moved to the portal's trash\.$/, { level: 'info' });
    await waitFor(
      () =>
        !vscode.window.tabGroups.all.some((group) =>
          group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === document.uri.toString()),
        ),
      { message: "the record's editor to close" },
    );
  });

  it('deletes nothing when the user says no', async () => {
    await openRecord(portal(), '101', '6');
    user().answerMessage(undefined, /Delete record 6/);
    const mark = await requestMark();
    await vscode.commands.executeCommand('portal.deleteRecord');
    assert.deepEqual(await requestsSince(mark), []);
    assert.equal((await emulatorRecord('101', '6')).trashed, false);
  });

  it('creates a record from a new document and reopens it under its new id', async () => {
    const api = await testApi();
    const opened = await vscode.commands.executeCommand<string>('portal.newRecord', { portalId: portal(), appId: '101' });
    const document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened), {
      message: 'the new document',
    });
    assert.match(document.uri.path, /^\/101\/new\/new-record-\d+\.json$/);
    assert.deepEqual(fieldsOf(document), { $schema: `portal://${portal()}/101/schema/record.json`, f2: '' }, 'the required fields, empty');
    assert.deepEqual(lensTitles(await vscode.commands.executeCommand('vscode.executeCodeLensProvider', document.uri)), [
      '$(new-file) New record of app 101: saving creates it',
    ]);
    await setField(document, 'f2', 'Zeta Industries');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, valueRange(document, 'f2').end, ',\n  "f6": "3"');
    await vscode.workspace.applyEdit(edit);
    const created = waitForEvent(api.recordEvents.onDidChange, (change: RecordChange) => change.kind === 'created');
    const mark = await requestMark();
    assert.equal(await document.save(), true);
    const change = await created;
    assert.deepEqual(await requestsSince(mark), ['POST /api/v1/app/101/record/ 200']);
    const stored = await emulatorRecord('101', change.recordId);
    assert.equal(stored.data.f2, 'Zeta Industries');
    assert.equal(stored.data.f6, '3');
    const reopened = recordUriOf(portal(), '101', change.recordId);
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() === reopened.toString(), {
      message: `the editor of ${reopened.toString()}`,
    });
    assert.equal(fieldsOf(await vscode.workspace.openTextDocument(reopened)).f2, 'Zeta Industries');
    await waitFor(
      () =>
        !vscode.window.tabGroups.all.some((group) =>
          group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === opened),
        ),
      {
        message: 'the new document to close',
      },
    );
    await user().waitForMessage(new RegExp(`Created record ${change.recordId} of Customers\\.`), { level: 'info' });
  });

  it('creates a draft in an app with Draft mode when asked to', async () => {
    user().answerQuickPick('Draft', /published record or a draft/);
    const api = await testApi();
    const opened = await vscode.commands.executeCommand<string>('portal.newRecord', { portalId: portal(), appId: '102' });
    const document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened), {
      message: 'the new document',
    });
    assert.match(document.uri.path, /^\/102\/new\/new-draft-\d+\.json$/, 'its address says it is to be a draft');
    assert.deepEqual(Object.keys(fieldsOf(document)), ['$schema', 'f11', 'f15', 'f17']);
    await setField(document, 'f11', 'Draft order');
    await setField(document, 'f15', '01-03-2026');
    await setField(document, 'f17', '99.90');
    const created = waitForEvent(api.recordEvents.onDidChange, (change: RecordChange) => change.kind === 'created');
    assert.equal(await document.save(), true);
    const stored = await emulatorRecord('102', (await created).recordId);
    assert.equal(stored.draft, true);
  });

  it('refuses to create a record without its required fields, naming them, and keeps the document', async () => {
    const opened = await vscode.commands.executeCommand<string>('portal.newRecord', { portalId: portal(), appId: '101' });
    const document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened), {
      message: 'the new document',
    });
    await setField(document, 'f2', ' ');
    await setField(document, 'f2', '');
    const mark = await requestMark();
    assert.equal(await document.save(), false);
    assert.deepEqual(await requestsSince(mark), []);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), opened);
  });

  it("offers the field ids (with names) and the choice ids (with names) from the app's schema", async () => {
    const document = await openRecord(portal(), '102', '1');
    const text = document.getText();
    // A new key after "f22": the fields not in the document yet would be offered; here all are, so ask
    // inside an existing key, where the JSON language offers that key with its name.
    const keys = await completionsAt(document, text.indexOf('"f11"') + 2);
    const f11 = keys.find((item) => labelOf(item) === 'f11');
    assert.ok(f11, `f11 is offered (${keys.map(labelOf).join(', ')})`);
    assert.equal(f11.detail, 'Title');
    const values = await completionsAt(document, text.indexOf('"f19": "') + 8);
    const inserted = (item: vscode.CompletionItem): string =>
      typeof item.insertText === 'string' ? item.insertText : (item.insertText?.value ?? labelOf(item));
    const offered = values.filter((item) => item.kind === vscode.CompletionItemKind.Value).map((item) => [labelOf(item), inserted(item)]);
    assert.deepEqual(
      offered.sort((a, b) => a[1].localeCompare(b[1])),
      [
        ['(none)', '""'],
        ['New', '"1"'],
        ['Confirmed', '"2"'],
        ['Shipped', '"3"'],
        ['Delivered', '"4"'],
        ['Cancelled', '"5"'],
      ],
      'the names are the labels; the ids are inserted',
    );
  });

  it(`shows the choices by name in the suggest widget, inserting the id ${BROWSER_TAG}`, async () => {
    const document = await openRecord(portal(), '102', '6');
    await completionsAt(document, document.getText().indexOf('"f19": "') + 8); // the schema is loaded
    const editor = await vscode.window.showTextDocument(document);
    const range = valueRange(document, 'f19');
    const afterQuote = range.start.translate(0, 1); // the typed prefix is then just the quote: every choice fits
    editor.selection = new vscode.Selection(afterQuote, afterQuote);
    await waitFor(() => driver.focusedWithin('.monaco-editor'), { message: 'the editor to have the focus' });
    // The selection reaches the workbench a moment later: wait until its status bar shows the cursor there.
    const where = `Ln ${afterQuote.line + 1}, Col ${afterQuote.character + 1}`;
    await waitFor(async () => (await driver.texts('.statusbar-item')).some((text) => text.includes(where)), {
      message: `the cursor at ${where}`,
    });
    await driver.press('Control+Space');
    const rows = await waitFor(
      async () => {
        const labels = await driver.texts('.suggest-widget.visible .monaco-list-row .label-name');
        return labels.length >= 5 ? labels : undefined;
      },
      { message: 'the suggest widget with the choices' },
    );
    assert.deepEqual([...rows].sort(), ['(none)', 'Cancelled', 'Confirmed', 'Delivered', 'New', 'Shipped'], 'the choices by name');
    await driver.screenshot('record-completion');
    // Choosing "Shipped" (with the arrow keys: the list filters by what is inserted, the id) inserts its id.
    for (let step = 0; step < rows.length; step += 1) {
      const focused = await driver.texts('.suggest-widget.visible .monaco-list-row.focused .label-name');
      if (focused[0] === 'Shipped') break;
      await driver.press('ArrowDown');
    }
    assert.deepEqual(await driver.texts('.suggest-widget.visible .monaco-list-row.focused .label-name'), ['Shipped']);
    await driver.press('Enter');
    await waitFor(() => fieldsOf(document).f19 === '3', { message: 'the id of Shipped in the document' });
    assert.equal(document.isDirty, true);
  });

  it('offers the fields a new record does not have yet, by id with their names', async () => {
    const opened = await vscode.commands.executeCommand<string>('portal.newRecord', { portalId: portal(), appId: '101' });
    const document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened), {
      message: 'the new document',
    });
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, valueRange(document, 'f2').end, ',\n  ""');
    await vscode.workspace.applyEdit(edit);
    const items = await completionsAt(document, document.getText().lastIndexOf('""') + 1);
    const properties = items
      .filter((item) => item.kind === vscode.CompletionItemKind.Property)
      .map((item) => `${labelOf(item)} ${item.detail ?? ''}`);
    assert.deepEqual(
      properties,
      ['f3 Email', 'f4 Phone', 'f5 Website', 'f6 Tier', 'f7 Account manager', 'f8 Notes', 'f9 Customer since'],
      'writable fields only, in position order',
    );
  });
});
