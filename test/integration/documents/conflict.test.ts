// Someone else changes the record between open and save: VS Code's own conflict (Compare / Overwrite)
// appears, nothing is sent until the user chooses, and Overwrite sends only the user's changed fields.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { BROWSER_TAG, driver } from '../support/driver';
import {
  afterFreshCopy,
  emulatorRecord,
  fieldsOf,
  openRecord,
  requestMark,
  requestsSince,
  setField,
  valueRange,
} from '../support/documents';
import { testApi } from '../support/extension';
import { clearNotifications, clickNotificationAction, waitForNotification } from '../support/notifications';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';
import { useConnectedPortal } from './support';

const CONFLICT = /newer/i;

describe(`records as documents: someone else's change ${BROWSER_TAG}`, () => {
  useScriptedPrompter();
  const portal = useConnectedPortal();
  afterEach(clearNotifications);

  async function openEditedAndChangedElsewhere(): Promise<vscode.TextDocument> {
    const document = await openRecord(portal(), '102', '1');
    await setField(document, 'f11', 'My title');
    // The other change keeps the text's length ("10" -> "25"): VS Code must see it all the same.
    await (await testApi()).portals.client(portal()).updateRecord('102', '1', { f18: '25' });
    await afterFreshCopy();
    return document;
  }

  it('raises the conflict on save and sends nothing until the user chooses', async () => {
    const document = await openEditedAndChangedElsewhere();
    const mark = await requestMark();
    assert.equal(await document.save(), false, 'the save does not happen');
    assert.equal(document.isDirty, true);
    assert.equal(fieldsOf(document).f11, 'My title');
    const message = await waitForNotification(CONFLICT);
    assert.match(message, /Failed to save '1\.json'/);
    const buttons = await driver.texts('.notifications-center .notification-list-item .monaco-button');
    assert.ok(buttons.includes('Compare') && buttons.includes('Overwrite'), `Compare and Overwrite are offered (${buttons.join(', ')})`);
    await driver.screenshot('record-conflict');
    assert.deepEqual(await requestsSince(mark), ['GET /api/v1/app/102/record/1 200'], 'only the check: nothing was sent');
    const stored = await emulatorRecord('102', '1');
    assert.equal(stored.data.f11, 'Office chairs', 'nothing overwritten');
    assert.equal(stored.data.f18, '25');
  });

  it("overwrites after the conflict: the user's changed field wins, the other change stays", async () => {
    const document = await openEditedAndChangedElsewhere();
    assert.equal(await document.save(), false);
    // As a person reads the message first: the conflict's read is no longer fresh, so Overwrite's own check
    // reads the portal again (clicked within FRESH_MS, it would rightly reuse that read: no GET to count).
    await afterFreshCopy();
    const mark = await requestMark();
    await clickNotificationAction(CONFLICT, 'Overwrite');
    await waitFor(() => !document.isDirty, { message: "the document to be saved over the portal's copy" });
    assert.deepEqual(await requestsSince(mark), ['GET /api/v1/app/102/record/1 200', 'PUT /api/v1/app/102/record/1 200']);
    const stored = await emulatorRecord('102', '1');
    assert.equal(stored.data.f11, 'My title');
    assert.equal(stored.data.f18, '25', 'only the changed field was sent');
    // The editor then shows the record as the portal has it, without asking it again.
    await waitFor(() => fieldsOf(document).f18 === '25', { message: 'the document to show the other change' });
    assert.deepEqual(await requestsSince(mark), ['GET /api/v1/app/102/record/1 200', 'PUT /api/v1/app/102/record/1 200']);
    assert.equal(valueRange(document, 'f11').isEmpty, false);
  });

  it('reloads a document without unsaved changes when the record changes elsewhere (webhook)', async () => {
    const document = await openRecord(portal(), '102', '2');
    await (await testApi()).portals.client(portal()).updateRecord('102', '2', { f11: 'Changed elsewhere' });
    (await testApi()).recordEvents.fire({ portalId: portal(), appId: '102', recordId: '2', kind: 'updated', origin: 'webhook' });
    await waitFor(() => fieldsOf(document).f11 === 'Changed elsewhere', { message: 'the document to reload' });
    assert.equal(document.isDirty, false);
  });
});
