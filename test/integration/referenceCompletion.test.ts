// Completion of references (issue 33): after an app's prefix in Markdown, the user's own records come first
// (from the rows already read, no request), then a search by title in the app's view: one request.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedPortal } from './documents/support';
import { emulatorRecord, requestMark, requestsSince } from './support/documents';
import { emulator } from './support/emulator';
import { testApi } from './support/extension';

const TICKETS = '201';
const ME = 'completion@example.com';

describe('completion of references', function () {
  this.timeout(60_000);
  const connected = useConnectedPortal();

  afterEach(async () => {
    const configuration = vscode.workspace.getConfiguration();
    await configuration.update('portal.references', undefined, vscode.ConfigurationTarget.Global);
    await configuration.update('portal.me.email', undefined, vscode.ConfigurationTarget.Global);
  });

  it("offers the user's own records first, then a title search made with one request", async () => {
    const portalId = connected();
    const api = await testApi();
    const base = emulator().base_url.replace(/\/+$/, '');
    const configuration = vscode.workspace.getConfiguration();
    await configuration.update('portal.references', { [base]: { [TICKETS]: 'TCK-{id}' } }, vscode.ConfigurationTarget.Global);
    await configuration.update('portal.me.email', { [base]: ME }, vscode.ConfigurationTarget.Global);
    await api.portals.client(portalId).updateRecord(TICKETS, '7', { f40: ME });
    await api.views.add(portalId, TICKETS, { viewId: '6', name: 'All tickets' });
    api.rows.drop(portalId, TICKETS, '6');
    await api.rows.read({ portalId, appId: TICKETS, viewId: '6' });

    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: 'Fixes TCK-' });
    await vscode.window.showTextDocument(document);
    const mark = await requestMark();
    const own = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      document.positionAt(document.getText().length),
    );
    const labels = own.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    assert.equal(labels[0], 'TCK-7', `own first: ${labels.join(', ')}`);
    assert.deepEqual(await requestsSince(mark), [], 'own records come from the rows read, no request');

    const subject = String((await emulatorRecord(TICKETS, '12')).data.f31 ?? '');
    const word = /[A-Za-z]{4,}/.exec(subject)?.[0] ?? '';
    assert.ok(word !== '', `a word of "${subject}"`);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, document.positionAt(document.getText().length), word);
    await vscode.workspace.applyEdit(edit);
    const searchMark = await requestMark();
    const searched = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      document.positionAt(document.getText().length),
    );
    const found = searched.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    assert.equal(found[0], 'TCK-7', `own still first: ${found.join(', ')}`);
    assert.ok(found.includes('TCK-12'), `the title search finds TCK-12: ${found.join(', ')}`);
    const item = searched.items.find((entry) => typeof entry.label !== 'string' && entry.label.label === 'TCK-12');
    assert.equal(item?.insertText, 'TCK-12');
    const requests = await requestsSince(searchMark);
    assert.equal(requests.filter((line) => line.startsWith(`GET /api/v1/app/${TICKETS}/view/6`)).length, 1, requests.join('; '));
    assert.equal(requests.length, 1, `the search is the only request: ${requests.join('; ')}`);
  });
});
