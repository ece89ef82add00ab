// Journey (q): a watched view, as a person uses it. The read interval set to 2 s in the Settings editor;
// *Watch View* from the view's context menu in the Portal view; another user changes a record of the view
// through the portal's API; with no webhook registered, the next watched read marks the row in the tree
// (C, under its new title) and counts it on the Portal view's badge. Stop Watching from the same menu
// takes the mark and the badge away.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { changeRecordAsAnotherUser, emulatorCall, eventually } from './support/emulator';
import { collapseTree, contextMenu, rowAt, showView } from './support/tree';
import { closeAllEditors, freshStart, runCommand } from './support/workbench';
import { page, screenshots, world } from './support/world';

const ORDERS = ['Demo portal', 'Operations', 'Orders'];
const APP = '102';
/** Gift baskets, a row of view 3 in the seed. */
const GIFTS = '4';
const TITLE = 'f11';
const INTERVAL_SECONDS = 2;
const SETTING = 'portal.watch.intervalSeconds';

/**
 * The Portal view's count badge, on its icon in the activity bar: VS Code keeps a hidden one when there is
 * none, and shows a progress badge there while the view loads something.
 */
const badge = () =>
  page().locator('.activitybar .action-item:has(a.action-label[aria-label^="Portal"]) .badge-content:visible', { hasText: /^\s*\d+\s*$/ });

/** Sets portal.watch.intervalSeconds in the Settings editor, as a person does, and waits for settings.json. */
async function setWatchInterval(seconds: number): Promise<void> {
  const p = page();
  await runCommand('Preferences: Open User Settings');
  const search = p.locator('.settings-editor .suggest-input-container textarea, .settings-editor .settings-header input').first();
  await search.waitFor();
  await p.keyboard.type(SETTING);
  const input = p.locator('.settings-editor .setting-item-contents', { hasText: 'Interval Seconds' }).first().locator('input').first();
  await input.waitFor();
  await input.click();
  await p.keyboard.press('Control+A');
  await p.keyboard.type(String(seconds));
  const file = join(world().profile.userData, 'User', 'settings.json');
  await eventually(
    async () => readFileSync(file, 'utf8'),
    (text) => new RegExp(`"${SETTING.replace(/\./g, '\\.')}": ${seconds}\\b`).test(text),
    `${SETTING} = ${seconds} in ${file}`,
  );
  await closeAllEditors();
}

describe('Journey (q): a watched view', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => closeAllEditors());

  it("Watch View from the view's context menu; another user's change is marked in the tree and on the badge at the next read, no webhook", async () => {
    const shot = screenshots('q-watch');
    await setWatchInterval(INTERVAL_SECONDS);
    await collapseTree();
    const view = await showView(ORDERS, '3');
    await rowAt([...view, 'Gift baskets']);

    await contextMenu(view, 'Watch View');
    const viewRow = await rowAt(view);
    await viewRow.locator('.label-description', { hasText: /watching/ }).waitFor();
    // The pointer away from the rows, so that the picture shows none of its inline actions.
    await page().mouse.move(700, 600);
    await shot('watching');
    assert.equal(await badge().count(), 0, 'the first read (the baseline) marks nothing');

    await changeRecordAsAnotherUser(APP, GIFTS, { [TITLE]: 'Hampers for the team' });
    // Within one interval or two (the change may land just after a read): generous for a busy machine.
    const changed = await rowAt([...view, 'Hampers for the team'], 10 * INTERVAL_SECONDS * 1000);
    // The decoration's letter is drawn by CSS from a class VS Code puts on the row's label.
    await eventually(
      async () => (await changed.locator('.monaco-icon-label').first().getAttribute('class')) ?? '',
      (classes) => /monaco-decoration-itemBadge/.test(classes),
      'the C mark on the changed row',
      10 * INTERVAL_SECONDS * 1000,
    );
    await badge().waitFor({ timeout: 10 * INTERVAL_SECONDS * 1000 });
    assert.equal((await badge().textContent())?.trim(), '1', 'one changed row on the badge');
    await page().mouse.move(700, 600);
    await shot('changed row marked, badge 1');

    const deliveries = await emulatorCall<unknown[]>('GET', 'deliveries');
    assert.deepEqual(deliveries, [], 'no webhook was involved');

    await contextMenu(view, 'Stop Watching');
    await badge().waitFor({ state: 'hidden' });
    await shot('stopped');
  });
});
