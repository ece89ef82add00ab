// A record opened as a JSON document, edited and saved, as a user does it, checked through the portal's
// API (the emulator's copy of the record) and its request log: open = 1 GET, save = 1 GET + 1 PUT.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from '../support/driver';
import {
  afterFreshCopy,
  closeAllEditors,
  emulatorRecord,
  fieldsOf,
  openRecord,
  recordUriOf,
  requestMark,
  requestsSince,
  setField,
  valueRange,
} from '../support/documents';
import { emulatorControl } from '../support/emulator';
import { testApi } from '../support/extension';
import { clearNotifications, waitForNotification } from '../support/notifications';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';
import { useConnectedPortal } from './support';

const RECORD = 'GET /api/v1/app/102/record/1 200';

describe('records as documents: open, edit, save', () => {
  useScriptedPrompter();
  const portal = useConnectedPortal();
  afterEach(clearNotifications);

  it('opens a record as pretty JSON with its schema, with one GET (columns once per app)', async () => {
    (await testApi()).catalog.refresh(portal());
    let mark = await requestMark();
    const document = await openRecord(portal(), '102', '4');
    assert.equal(document.languageId, 'json');
    assert.deepEqual(fieldsOf(document), {
      $schema: `portal://${portal()}/102/schema/record.json`,
      ...(await emulatorRecord('102', '4')).data,
    });
    assert.deepEqual(
      Object.keys(fieldsOf(document)),
      ['$schema', 'f10', 'f11', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f19', 'f20', 'f21', 'f22'],
      'in column order',
    );
    assert.match(document.getText(), /^\{\n {2}"\$schema": /, 'two spaces, $schema first');
    assert.equal(document.isDirty, false);
    // Let the editor settle (VS Code stats the file again after showing it) before counting. Requests of
    // other records (documents of earlier tests that VS Code still holds) are not this open's.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const ofApp = (requests: string[]): string[] =>
      requests.filter((request) => /\/app\/102\/(columns|record\/[45]) /.test(request)).sort();
    assert.deepEqual(ofApp(await requestsSince(mark)), ['GET /api/v1/app/102/columns 200', 'GET /api/v1/app/102/record/4 200']);

    mark = await requestMark();
    await openRecord(portal(), '102', '5');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(ofApp(await requestsSince(mark)), ['GET /api/v1/app/102/record/5 200'], 'the columns are kept: one GET per record');
  });

  it(`saves with Ctrl+S: only the changed field is sent (1 GET + 1 PUT), and the portal has it ${BROWSER_TAG}`, async () => {
    const document = await openRecord(portal(), '102', '1');
    await setField(document, 'f11', 'Standing desks');
    assert.equal(document.isDirty, true);
    await afterFreshCopy();
    const mark = await requestMark();
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(valueRange(document, 'f11').end, valueRange(document, 'f11').end);
    await waitFor(() => driver.focusedWithin('.monaco-editor'), { message: 'the editor to have the focus' });
    await driver.press('Control+S');
    await waitFor(() => !document.isDirty, { message: 'the document to be saved' });
    assert.deepEqual(await requestsSince(mark), [RECORD, 'PUT /api/v1/app/102/record/1 200']);
    const stored = await emulatorRecord('102', '1');
    assert.equal(stored.data.f11, 'Standing desks');
    assert.equal(stored.data.f18, '10', 'the other fields are untouched');
    assert.equal(fieldsOf(document).f11, 'Standing desks');
    const log = (await testApi()).logLines().join('\n');
    assert.match(log, /Saved record 1 of app 102: sent f11\./);
    assert.doesNotMatch(log, /Standing desks/, 'no record value in the log');
  });

  it('sends nothing when no value changed, and shows the record as the portal has it after', async () => {
    const document = await openRecord(portal(), '102', '1');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, valueRange(document, 'f11'), '  "Office chairs"'); // spaces only: no value changes
    await vscode.workspace.applyEdit(edit);
    assert.equal(document.isDirty, true);
    await afterFreshCopy();
    const mark = await requestMark();
    assert.equal(await document.save(), true);
    assert.deepEqual(await requestsSince(mark), [RECORD], 'the check, and no PUT');
    await waitFor(() => document.getText().includes('"f11": "Office chairs"'), { message: 'the document in its own layout again' });
    assert.deepEqual(await requestsSince(mark), [RECORD], 'reloaded from the copy just checked');
  });

  it(`refuses a bad date before sending: a diagnostic on the field, no PUT, the text kept ${BROWSER_TAG}`, async () => {
    const document = await openRecord(portal(), '102', '1');
    await setField(document, 'f15', '31-02-2026');
    const problem = await waitFor(
      () => vscode.languages.getDiagnostics(document.uri).find((diagnostic) => diagnostic.source === 'Portal'),
      { message: 'a Portal diagnostic on the date' },
    );
    assert.match(problem.message, /^Order date: not a real date: 31-02-2026/);
    assert.deepEqual(problem.range, valueRange(document, 'f15'));
    const mark = await requestMark();
    assert.equal(await document.save(), false, 'the save fails');
    assert.equal(document.isDirty, true);
    assert.equal(fieldsOf(document).f15, '31-02-2026', 'the text is kept');
    assert.ok(!(await requestsSince(mark)).some((request) => request.startsWith('PUT')), 'nothing was sent');
    assert.equal((await emulatorRecord('102', '1')).data.f15, '02-01-2026');
    const message = await waitForNotification(/Order date/);
    assert.match(message, /f15 \(Order date\): not a real date: 31-02-2026 \(expected DD-MM-YYYY\)\. Nothing was sent\./);
    await driver.screenshot('record-bad-date');

    // A wrong shape blocks the save too: an Error, once (the JSON language adds no Warning of its own).
    await setField(document, 'f15', '2026-02-01');
    const shapeProblem = await waitFor(
      () => vscode.languages.getDiagnostics(document.uri).find((diagnostic) => /Order date: expected DD-MM-YYYY/.test(diagnostic.message)),
      {
        message: "the diagnostic on the date's shape",
      },
    );
    assert.equal(shapeProblem.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual(shapeProblem.range, valueRange(document, 'f15'));
    assert.deepEqual(
      vscode.languages.getDiagnostics(document.uri).map((diagnostic) => diagnostic.message),
      [shapeProblem.message],
      'one mistake, one problem',
    );
  });

  it(`shows a bad e-mail, which blocks the save, as an Error in Problems, and no Warning ${BROWSER_TAG}`, async () => {
    const document = await openRecord(portal(), '101', '1');
    await setField(document, 'f3', 'ann@example');
    const problem = await waitFor(
      () => vscode.languages.getDiagnostics(document.uri).find((diagnostic) => /Email/.test(diagnostic.message)),
      { message: 'a diagnostic on the e-mail' },
    );
    assert.equal(problem.severity, vscode.DiagnosticSeverity.Error, `an Error: ${problem.message}`);
    // Give the JSON language its time to validate against the schema: it must add nothing.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(
      vscode.languages
        .getDiagnostics(document.uri)
        .filter((diagnostic) => diagnostic.severity !== vscode.DiagnosticSeverity.Error)
        .map((diagnostic) => diagnostic.message),
      [],
      'no Warning',
    );
    const mark = await requestMark();
    assert.equal(await document.save(), false, 'the save is refused');
    assert.ok(!(await requestsSince(mark)).some((request) => request.startsWith('PUT')), 'nothing was sent');
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await driver.screenshot('record-bad-email-problems');
    await closeAllEditors();
  });

  it('refuses a changed read-only field and an unknown one, naming them, and sends nothing', async () => {
    const document = await openRecord(portal(), '102', '1');
    await setField(document, 'f13', 'Globex');
    await waitFor(
      () => vscode.languages.getDiagnostics(document.uri).find((diagnostic) => /Customer is read-only \(LookUp\)/.test(diagnostic.message)),
      {
        message: 'the read-only diagnostic',
      },
    );
    const mark = await requestMark();
    assert.equal(await document.save(), false);
    assert.ok(!(await requestsSince(mark)).some((request) => request.startsWith('PUT')));
    assert.equal(document.isDirty, true);
  });

  it('fails the save when the connection drops, keeps the text, and a later save goes through', async () => {
    const document = await openRecord(portal(), '102', '1');
    await setField(document, 'f11', 'Dropped once');
    await emulatorControl('POST', 'faults', { path: '^/api/v1/app/102/record/1$', method: 'PUT', drop: true });
    await afterFreshCopy();
    const mark = await requestMark();
    assert.equal(await document.save(), false);
    assert.equal(document.isDirty, true);
    assert.equal(fieldsOf(document).f11, 'Dropped once');
    const requests = await requestsSince(mark);
    assert.deepEqual(requests, [RECORD, 'PUT /api/v1/app/102/record/1 0'], 'the PUT was tried once, and dropped');
    assert.equal((await emulatorRecord('102', '1')).data.f11, 'Office chairs');

    assert.equal(await document.save(), true, 'the next save goes through');
    assert.equal(document.isDirty, false);
    assert.equal((await emulatorRecord('102', '1')).data.f11, 'Dropped once');
  });

  it(`fails the save with the portal's message on a 5xx, and keeps the text ${BROWSER_TAG}`, async () => {
    const document = await openRecord(portal(), '102', '1');
    await setField(document, 'f11', 'Server trouble');
    await emulatorControl('POST', 'faults', {
      path: '^/api/v1/app/102/record/1$',
      method: 'PUT',
      status: 503,
      body: { error: { code: 'maintenance', message: 'The portal is down for maintenance.' } },
    });
    assert.equal(await document.save(), false);
    assert.equal(document.isDirty, true);
    assert.match(await waitForNotification(/maintenance/), /The portal is down for maintenance\..*Your text is kept/);
    assert.equal((await emulatorRecord('102', '1')).data.f11, 'Office chairs');
    assert.equal(await document.save(), true);
  });

  it(`fails the save with the portal's 400 (a unique value taken), naming the field ${BROWSER_TAG}`, async () => {
    const document = await openRecord(portal(), '101', '1');
    const taken = (await emulatorRecord('101', '2')).data.f2;
    await setField(document, 'f2', taken);
    assert.equal(await document.save(), false);
    assert.equal(document.isDirty, true);
    assert.match(await waitForNotification(/must be unique/), /f2 \(Name\) must be unique; record 2 has the same value\./);
    assert.notEqual((await emulatorRecord('101', '1')).data.f2, taken);
  });

  it(`fails the save when the sign-in cannot be renewed, says to sign in, and saves once signed in ${BROWSER_TAG}`, async () => {
    const document = await openRecord(portal(), '102', '1');
    await setField(document, 'f11', 'After signing in');
    await emulatorControl('POST', 'tokens/expire');
    await emulatorControl('POST', 'faults', {
      path: 'oauth2/token',
      count: -1,
      status: 401,
      body: { error: 'invalid_client', error_description: 'Client authentication failed.' },
    });
    assert.equal(await document.save(), false);
    assert.equal(document.isDirty, true);
    assert.match(await waitForNotification(/Sign in/), /Sign in to "Emulator" \(Portal: Sign In\), then save again: your text is kept\./);
    await emulatorControl('DELETE', 'faults');
    await vscode.commands.executeCommand('portal.signIn', portal());
    assert.equal(await document.save(), true);
    assert.equal((await emulatorRecord('102', '1')).data.f11, 'After signing in');
  });

  it('shows a record reopened after a reload from the URI alone (the file system, not the command)', async () => {
    await closeAllEditors();
    const uri = recordUriOf(portal(), '101', '3');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(fieldsOf(document).f2, (await emulatorRecord('101', '3')).data.f2);
  });
});
