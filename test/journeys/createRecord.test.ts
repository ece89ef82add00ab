// Journey (d): a record created with the form. Create Record… from the palette, the app picked by typing,
// a text, a choice from the dropdown, a date and an amount filled inside the panel's frame with clicks and
// keys (the choice shows its column's default until then), Save as draft (Orders has Draft mode); one POST
// reaches the portal with exactly those fields, and the new record opens as a document from the
// notification. Then a form half filled in survives Developer: Reload Window with what was typed, and
// nothing is created on its own. Last, two new orders typed as documents (Portal: New Record…, a record
// and a draft) survive Developer: Reload Window with what was typed; Ctrl+S creates each once, as chosen,
// and reopens it under its id, where the next Ctrl+S saves the record and creates nothing.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { eventually, recordState, requestMark, requestsSince, type LoggedRequest } from './support/emulator';
import { panelFrame } from './support/panels';
import { collapseTree, expandPath } from './support/tree';
import {
  clickNotificationButton,
  closeAllEditors,
  editorText,
  freshStart,
  notification,
  pick,
  reloadWindow,
  runCommand,
  save,
  setFieldValue,
  tabLabels,
} from './support/workbench';
import { page, screenshots, world } from './support/world';

const ORDERS_APP = '102';
const FORM_TITLE = 'New record · Orders';
/** What is entered, by field id in data, in the API's formats (the emulator's seed: Status "Confirmed" is choice 2). */
const ENTERED = { f11: 'Standing desks for the lab', f15: '15-03-2026', f17: '1250', f19: '2' };

/** Create Record… from the palette, Orders typed into the app's quick pick: the form's frame, once shown. */
async function openOrdersForm(): Promise<Frame> {
  await runCommand('Portal: Create Record…');
  // The app typed into the quick pick; Enter once the filtered list has it first (focused).
  const quickPick = page().locator('.quick-input-widget', { hasText: /Create Record/ });
  await quickPick.locator('input.input[placeholder="Which app?"]').waitFor();
  await page().keyboard.type('Orders');
  await quickPick.locator('.monaco-list-row.focused', { hasText: /^Orders/ }).waitFor();
  await page().keyboard.press('Enter');
  const frame = await panelFrame(FORM_TITLE);
  await frame.locator('#save-draft').waitFor();
  return frame;
}

/**
 * Portal: New Record… from the palette, Orders typed into the app's quick pick (not asked when an Orders
 * document is in front: its app is taken), a record or a draft picked: once its text shows.
 */
async function newOrderDocument(kind: 'Record' | 'Draft', { askedForApp }: { askedForApp: boolean }): Promise<void> {
  await runCommand('Portal: New Record…');
  if (askedForApp) {
    const quickPick = page().locator('.quick-input-widget', { hasText: /New Record/ });
    await quickPick.locator('input.input[placeholder="Which app?"]').waitFor();
    await page().keyboard.type('Orders');
    await quickPick.locator('.monaco-list-row.focused', { hasText: /^Orders/ }).waitFor();
    await page().keyboard.press('Enter');
  }
  await pick(/published record or a draft/, kind);
  const tabs = page().locator('.part.editor .tabs-container .tab', { hasText: /^new-/ });
  await tabs.nth(askedForApp ? 0 : 1).waitFor();
  // Its text, the required fields empty (the hint after a key names its field).
  await page()
    .locator('.part.editor .view-lines', { hasText: /Amount:\s*\x22\x22/ })
    .first()
    .waitFor();
}

/** POSTs that create an Orders record, after `mark`. */
async function ordersCreated(mark: number): Promise<LoggedRequest[]> {
  return (await requestsSince(mark)).filter(
    (request) => request.method === 'POST' && /^\/api\/v1\/app\/102\/record\/?$/.test(request.path),
  );
}

/** A field of the form by its field id in data. */
const fieldOf = (frame: Frame, key: string) => frame.locator(`.field[data-field="${key}"]`);

/** What a text field of the form shows. */
async function shownText(frame: Frame, key: string): Promise<string> {
  return fieldOf(frame, key)
    .locator('vscode-text-field')
    .evaluate((element) => (element as unknown as { value?: string }).value ?? '');
}

describe('Journey (d): a record created with the form', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => closeAllEditors());

  it('Create Record… from the palette, the app typed, a text, a choice, a date; Save as draft: one POST with those fields; the record opens', async () => {
    const shot = screenshots('d-create-record');
    await collapseTree();
    await expandPath(['Demo portal']);
    const frame = await openOrdersForm();
    await shot('form open');

    const field = (key: string) => fieldOf(frame, key);
    await field('f11').locator('vscode-text-field').click();
    await page().keyboard.type(ENTERED.f11);
    await field('f17').locator('vscode-text-field').click();
    await page().keyboard.type(ENTERED.f17);
    const status = field('f19').locator('vscode-dropdown');
    // A choice left as it is shows the default the portal will give it (Orders' Status: New), not "(none)".
    const shownStatus = await status.evaluate((element) => {
      const dropdown = element as unknown as { selectedOptions?: { textContent: string | null }[]; value?: string };
      return (dropdown.selectedOptions?.[0]?.textContent ?? dropdown.value ?? '').trim();
    });
    assert.equal(shownStatus, 'New', "the Status choice shows the column's default");
    await status.click();
    await status.getByRole('option', { name: 'Confirmed', exact: true }).click();
    // The date input's segments follow the browser's locale: type the parts in the order it shows them.
    const date = field('f15').locator('input[type="date"]');
    await date.click({ position: { x: 4, y: 4 } });
    const order = await date.evaluate(() =>
      new Intl.DateTimeFormat()
        .formatToParts(new Date(2026, 2, 15))
        .filter((part) => part.type !== 'literal')
        .map((part) => part.type),
    );
    const parts: Record<string, string> = { day: '15', month: '03', year: '2026' };
    for (const part of order) await page().keyboard.type(parts[part] ?? '');
    assert.equal(await date.inputValue(), '2026-03-15', 'the date input holds the typed date');
    await shot('fields filled');

    const mark = await requestMark();
    await frame.locator('#save-draft').click();
    await notification(/Created draft record \d+ in Orders/);
    await shot('created');
    const posts = (await requestsSince(mark)).filter(
      (request: LoggedRequest) => request.method === 'POST' && /^\/api\/v1\/app\/102\/record\/?$/.test(request.path),
    );
    assert.equal(posts.length, 1, `one POST creates the record: ${JSON.stringify(posts)}`);
    const id = /record (\d+)/.exec((await (await notification(/Created draft record/)).innerText()) ?? '')?.[1];
    assert.ok(id, 'the message names the new record');
    const state = await recordState(ORDERS_APP, id);
    assert.equal(state.draft, true, 'the record is a draft');
    const written = Object.fromEntries(
      Object.entries(state.data).filter(([key, value]) => value !== '' && !['f10', 'f13', 'f14'].includes(key)),
    );
    assert.deepEqual(written, ENTERED, 'the portal holds exactly the fields entered (the portal sets the order no. and the lookups)');

    await clickNotificationButton(/Created draft record/, 'Open record');
    // A draft's tab names it by its id (its title shows once published).
    await page()
      .locator('.part.editor .tabs-container .tab.active', { hasText: new RegExp(`\\b${id}\\b`) })
      .waitFor();
    await page()
      .locator('.part.editor .view-lines', { hasText: /Standing.desks.for.the.lab/ })
      .first()
      .waitFor();
    const text = await editorText();
    assert.match(text, /"f11".*"Standing desks for the lab"/, 'the new record is open as a document');
    assert.match(text, /"f15".*"15-03-2026"/);
    assert.ok((await tabLabels()).length >= 2, 'the record opened in a tab of its own beside the form');
    await shot('record open');
  });

  it('survives Developer: Reload Window: the form comes back with what was typed, and nothing is created', async () => {
    const shot = screenshots('d-form-reload');
    await closeAllEditors();
    let frame = await openOrdersForm();
    await fieldOf(frame, 'f11').locator('vscode-text-field').click();
    await page().keyboard.type('Chairs for the reading room');
    await fieldOf(frame, 'f17').locator('vscode-text-field').click();
    await page().keyboard.type('480');
    await shot('fields typed');

    const mark = await requestMark();
    await reloadWindow();
    frame = await panelFrame(FORM_TITLE, 90_000);
    await frame.locator('#save-draft').waitFor();
    await shot('after reload');
    assert.equal(await shownText(frame, 'f11'), 'Chairs for the reading room', 'the text typed is back');
    assert.equal(await shownText(frame, 'f17'), '480', 'the amount typed is back');
    const posts = (await requestsSince(mark)).filter(
      (request: LoggedRequest) => request.method === 'POST' && request.path.startsWith('/api/v1/app/'),
    );
    assert.deepEqual(posts, [], 'nothing was created on its own');
  });

  it('survives Developer: Reload Window: new-record documents come back with what was typed; Ctrl+S creates each once, as chosen, and opens it under its id', async () => {
    const shot = screenshots('d-new-record-reload');
    await closeAllEditors();
    await collapseTree();
    await expandPath(['Demo portal']);
    await newOrderDocument('Record', { askedForApp: true });
    await setFieldValue('f11', 'Printer paper');
    await setFieldValue('f15', '02-04-2026');
    await setFieldValue('f17', '89');
    await newOrderDocument('Draft', { askedForApp: false });
    await setFieldValue('f11', 'Standing desk');
    await setFieldValue('f15', '03-04-2026');
    await setFieldValue('f17', '640');
    await page().locator('.part.editor .tabs-container .tab.dirty').nth(1).waitFor();
    await backedUp(['"f11": "Printer paper"', '"f17": "89"'], ['"f11": "Standing desk"', '"f17": "640"']);
    await shot('two new orders typed');

    const mark = await requestMark();
    await reloadWindow();
    await page()
      .locator('.part.editor .view-lines', { hasText: /Standing.desk/ })
      .first()
      .waitFor({ timeout: 90_000 });
    // Both documents are back, unsaved (VS Code marks the tab in the background once it has read its backup).
    await page().locator('.part.editor .tabs-container .tab.dirty').nth(1).waitFor();
    // The document in front is still known for what it is: a new draft of Orders.
    await page()
      .locator('.part.editor .codelens-decoration', { hasText: /New draft of app 102: saving creates it/ })
      .waitFor();
    await shot('after reload');
    assert.deepEqual(await ordersCreated(mark), [], 'nothing was created on its own');

    // The draft, in front: Ctrl+S creates it once, and it opens under its id.
    await save();
    const draftId = /record (\d+)/.exec(await (await notification(/Created record \d+ of Orders/)).innerText())?.[1];
    assert.ok(draftId, 'the message names the new record');
    await page()
      .locator('.part.editor .tabs-container .tab.active', { hasText: new RegExp(`\\b${draftId}\\b`) })
      .waitFor();
    await shot('draft created and reopened');
    assert.equal((await ordersCreated(mark)).length, 1, 'one POST');
    const draft = await recordState(ORDERS_APP, draftId);
    assert.equal(draft.draft, true, 'created as the draft that was chosen before the reload');
    assert.equal(draft.data.f11, 'Standing desk');

    // Ctrl+S again, with a change: the record is updated, not created again.
    await setFieldValue('f17', '650');
    const beforeUpdate = await requestMark();
    await save();
    await page().locator('.part.editor .tabs-container .tab.dirty').nth(1).waitFor({ state: 'detached' });
    await eventuallyUpdated(beforeUpdate, draftId);
    await shot('draft saved again');
    assert.equal((await ordersCreated(mark)).length, 1, 'still one POST');

    // The other document, a published record: once, under its own id.
    await page().locator('.part.editor .tabs-container .tab.dirty').first().click();
    await page()
      .locator('.part.editor .view-lines', { hasText: /Printer.paper/ })
      .first()
      .waitFor();
    await save();
    const recordId = /record (\d+)/.exec(
      await (await notification(new RegExp(`Created record (?!${draftId}\\b)\\d+ of Orders`))).innerText(),
    )?.[1];
    assert.ok(recordId && recordId !== draftId, 'a second record, for the second document');
    await page()
      .locator('.part.editor .tabs-container .tab.active', { hasText: new RegExp(`\\b${recordId}\\b`) })
      .waitFor();
    await shot('record created and reopened');
    assert.equal((await ordersCreated(mark)).length, 2, 'one POST per document');
    const published = await recordState(ORDERS_APP, recordId);
    assert.equal(published.draft, false);
    assert.equal(published.data.f11, 'Printer paper');
    assert.equal(await page().locator('.part.editor .tabs-container .tab.dirty').count(), 0, 'nothing left unsaved');
  });
});

/** Waits until the request log shows the update of record `id` after `mark`. */
async function eventuallyUpdated(mark: number, id: string): Promise<void> {
  await eventually(
    () => requestsSince(mark),
    (requests) => requests.some((request) => request.method === 'PUT' && request.path === `/api/v1/app/102/record/${id}`),
    `the update of record ${id}`,
  );
}

/**
 * Waits until VS Code has backed up, for each of `documents`, a document holding all of its texts (files
 * under the profile's User/Backups). VS Code backs up a second after the last keystroke; a reload before
 * that loses the keystrokes whatever the extension does, and a person does not reload quite that fast.
 */
async function backedUp(...documents: string[][]): Promise<void> {
  const root = join(world().profile.userData, 'User', 'Backups');
  // VS Code replaces backups as it writes them: a file gone between listing and reading is skipped.
  const read = (path: string): string[] => {
    try {
      return statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => read(join(path, name))) : [readFileSync(path, 'utf8')];
    } catch {
      return [];
    }
  };
  const backups = async (): Promise<string[]> => (existsSync(root) ? read(root) : []);
  await eventually(
    backups,
    (texts) => documents.every((wanted) => texts.some((text) => wanted.every((part) => text.includes(part)))),
    'the backups of the typed documents',
  );
}
