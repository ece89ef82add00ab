// Journeys (b), (c) and (h): a record opened from the Portal view, edited with the keyboard and saved with
// Ctrl+S; a bad date refused before anything is written; a conflict with another user's change resolved
// with Compare and Overwrite; the tabs of three records from two portals and two apps, and the status bar
// naming the portal of the record in front.
import * as assert from 'node:assert/strict';
import { changeRecordAsAnotherUser, eventually, recordState, requestMark, requestsSince } from './support/emulator';
import { collapseTree, openRecordRow, showView } from './support/tree';
import {
  answerInput,
  clickNotificationButton,
  closeAllEditors,
  editorText,
  freshStart,
  notification,
  pick,
  problems,
  runCommand,
  save,
  setFieldValue,
  tabLabels,
  tabTitles,
} from './support/workbench';
import { page, screenshots, world } from './support/world';

const ORDERS = ['Demo portal', 'Operations', 'Orders'];
const RECORD_PATH = '/api/v1/app/102/record/1';

async function dirtyTabs(): Promise<number> {
  return page().locator('.part.editor .tabs-container .tab.dirty').count();
}

/** Waits until the status bar's Portal item names `label`. */
async function statusBarPortal(label: string): Promise<void> {
  await page()
    .locator('.part.statusbar .statusbar-item[id$="portal.status"]', { hasText: new RegExp(`^\\s*${label}\\s*$`) })
    .waitFor();
}

async function recordRequests(mark: number): Promise<string[]> {
  return (await requestsSince(mark))
    .filter((request) => request.path === RECORD_PATH)
    .map((request) => `${request.method} ${request.status}`);
}

describe('Journeys (b), (c), (h): records as documents', function () {
  this.timeout(240_000);

  beforeEach(async () => {
    await freshStart();
  });

  afterEach(() => closeAllEditors());

  it('(b) a bad date is refused with the text kept and nothing written; the fixed date saves one field', async () => {
    const shot = screenshots('b-bad-date');
    const view = await showView(ORDERS, '3');
    await openRecordRow(view, 'Office chairs');
    await shot('record open');
    const before = await recordState('102', '1');

    await setFieldValue('f15', '31-02-2026');
    let mark = await requestMark();
    await save();
    await notification(/Failed to save.*Order date.*Nothing was sent/);
    await shot('save refused');
    assert.match(await editorText(), /"f15".*"31-02-2026"/, 'the typed text is kept');
    assert.equal(await dirtyTabs(), 1, 'the document stays unsaved');
    assert.ok(!(await recordRequests(mark)).some((request) => request.startsWith('PUT')), 'nothing written to the portal');
    assert.deepEqual((await recordState('102', '1')).data, before.data);
    const listed = await problems();
    await shot('problems panel');
    const dateProblem = listed.find((problem) => /Order date/.test(problem.text));
    assert.equal(dateProblem?.severity, 'error', `the bad date is an Error in Problems: ${JSON.stringify(listed)}`);

    await setFieldValue('f15', '28-02-2026');
    mark = await requestMark();
    await save();
    await page().locator('.part.editor .tabs-container .tab.dirty').waitFor({ state: 'detached' });
    await shot('saved');
    assert.deepEqual(await recordRequests(mark), ['GET 200', 'PUT 200'], 'one read of the server copy, one update');
    const after = await recordState('102', '1');
    assert.deepEqual(after.data, { ...before.data, f15: '28-02-2026' }, 'only the changed field was written');
  });

  it('(b) a bad e-mail blocks the save and shows as an Error in Problems', async () => {
    const shot = screenshots('b-bad-email');
    await openRecordRow(await showView(['Demo portal', 'Operations', 'Customers'], '1'), 'Acme Corporation');
    const before = await recordState('101', '1');
    await setFieldValue('f3', 'orders@acme');
    const mark = await requestMark();
    await save();
    await notification(/Failed to save/);
    await shot('save refused');
    assert.equal(await dirtyTabs(), 1, 'the document stays unsaved');
    assert.ok(!(await requestsSince(mark)).some((request) => request.method === 'PUT'), 'nothing written to the portal');
    assert.deepEqual((await recordState('101', '1')).data, before.data);
    const listed = await problems();
    await shot('problems panel');
    const emailProblem = listed.find((problem) => /Email/.test(problem.text));
    assert.equal(emailProblem?.severity, 'error', `what blocks the save is an Error in Problems: ${JSON.stringify(listed)}`);
  });

  it('(c) another user changed the record: save, Compare, Overwrite keeps their change and writes ours', async () => {
    const shot = screenshots('c-conflict');
    const view = await showView(ORDERS, '3');
    await openRecordRow(view, 'Office chairs');
    // Our edit first: a document without unsaved changes would rightly take the portal's newer copy when
    // VS Code looks at it again, and there would be nothing to conflict with.
    await setFieldValue('f15', '01-03-2026');
    await changeRecordAsAnotherUser('102', '1', { f18: '99' });
    await save();
    await notification(/The content of the file is newer/);
    await shot('conflict reported');
    await clickNotificationButton(/The content of the file is newer/, 'Compare');
    const overwrite = page().locator('.part.editor .action-label[aria-label="Use your changes and overwrite file contents"]');
    await overwrite.waitFor();
    assert.ok(
      (await tabLabels()).some((label) => /Resolve save conflict|↔/.test(label)) ||
        (await page().locator('.part.editor .monaco-diff-editor').count()) > 0,
      'a diff editor shows the two versions',
    );
    await shot('compare');
    const mark = await requestMark();
    await overwrite.click();
    const after = await eventually(
      () => recordState('102', '1'),
      (state) => state.data.f15 === '01-03-2026',
      'our date reaches the portal',
    );
    await shot('overwritten');
    assert.equal(after.data.f18, '99', "the other user's change to another field is kept");
    assert.deepEqual(
      (await recordRequests(mark)).filter((request) => request.startsWith('PUT')),
      ['PUT 200'],
    );
  });

  it('(h) three records from two portals and two apps: each tab says which record it is', async () => {
    const shot = screenshots('h-tabs');
    const info = world().emulator.info;
    // A second portal: the same emulator under another name, with Client Credentials (no browser step).
    await runCommand('Portal: Add Portal…');
    await answerInput(/Base URL of the portal/, info.base_url);
    await answerInput(/Display name/, 'Staging');
    await answerInput(/Client ID/, info.client_id);
    await answerInput(/Secret Key/, info.client_secret);
    await pick(/Add Portal \(5\/5\)/, 'Client Credentials');
    await notification(/Connected to the portal "Staging"/);

    try {
      await openRecordRow(await showView(ORDERS, '3'), 'Office chairs');
      await openRecordRow(await showView(['Demo portal', 'Operations', 'Customers'], '1'), 'Acme Corporation');
      // The tree is a virtual list: fold it, so that the second portal's rows are on screen.
      await collapseTree();
      await openRecordRow(await showView(['Staging', 'Operations', 'Orders'], '3'), 'Office chairs');
      await page().locator('.part.editor .tabs-container .tab').nth(2).waitFor();
      const labels = await tabLabels();
      // Two tabs of the same record id and app in two portals share a name; VS Code then shows each one's
      // description (the portal), which is what a person reads to tell them apart.
      const titles = await tabTitles();
      await shot('three tabs');
      assert.equal(labels.length, 3, `three tabs: ${JSON.stringify(labels)}`);
      assert.equal(new Set(titles).size, 3, `three tabs a person tells apart: ${JSON.stringify(titles)}`);
      assert.match(titles[0], /demo-portal/, `the first "Office chairs" tab names its portal: ${JSON.stringify(titles)}`);
      assert.match(titles[2], /staging/, `the second "Office chairs" tab names its portal: ${JSON.stringify(titles)}`);
      assert.match(labels[0], /Office chairs/, `the tab names the record: ${JSON.stringify(labels)}`);
      assert.match(labels[1], /Acme Corporation/, `the tab names the record: ${JSON.stringify(labels)}`);
      assert.match(labels[2], /Office chairs/, `the tab names the record: ${JSON.stringify(labels)}`);

      // The status bar names the portal of the record in front, whichever tab a person clicks.
      const tabs = page().locator('.part.editor .tabs-container .tab');
      await tabs.nth(0).click();
      await statusBarPortal('Demo portal');
      await tabs.nth(2).click();
      await statusBarPortal('Staging');
      await shot('status bar names the portal of the record in front');
    } finally {
      await closeAllEditors();
      await runCommand('Portal: Remove Portal…');
      await pick(/portal/i, 'Staging');
      await page().getByRole('button', { name: 'Remove', exact: true }).click();
      await notification(/Removed the portal "Staging"/);
    }
  });
});
