// Journey (o): publish a draft and delete a record, each one click away, as a person does it. The draft's
// inline Publish button in the Portal view: one PUT, the record published in the portal, the row no longer
// a draft. A record opened in its editor, the editor title's Delete button, VS Code's confirmation
// answered: one DELETE, the record in the portal's trash, its tab closed and its row gone from the view.
import * as assert from 'node:assert/strict';
import { eventually, recordState, requestMark, requestsSince } from './support/emulator';
import { collapseTree, openRecordRow, rowAt, showView } from './support/tree';
import { closeAllEditors, freshStart, notification, tabLabels } from './support/workbench';
import { page, screenshots } from './support/world';

const ORDERS = ['Demo portal', 'Operations', 'Orders'];
const APP = '102';

async function writesSince(mark: number): Promise<string[]> {
  return (await requestsSince(mark))
    .filter((request) => request.method !== 'GET')
    .map((request) => `${request.method} ${request.path} ${request.status}`);
}

describe('Journey (o): publish a draft and delete a record, one click each', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => closeAllEditors());

  it("the draft's Publish button in the Portal view; the editor's Delete button, confirmed", async () => {
    const shot = screenshots('o-publish-delete');
    await collapseTree();
    const view = await showView(ORDERS, '3');
    assert.equal((await recordState(APP, '7')).draft, true, 'record 7 starts as a draft');

    // Publish: the inline button on the draft's row.
    const draft = await rowAt([...view, 'Desk lamps']);
    await draft.hover();
    await shot('draft row');
    let mark = await requestMark();
    await draft.locator('.action-label[aria-label^="Publish Draft"]').click();
    await notification(/^Record 7 of Orders is published\./);
    assert.deepEqual(await writesSince(mark), [`PUT /api/v1/app/${APP}/record/7 200`], 'one update');
    assert.equal((await recordState(APP, '7')).draft, false, 'the portal holds it published');
    const published = await rowAt([...view, 'Desk lamps']);
    await published.hover();
    await eventually(
      () => published.locator('.action-label[aria-label^="Publish Draft"]').count(),
      (count) => count === 0,
      'the row is no longer a draft (no Publish button)',
    );
    await shot('published');

    // Delete: the record's editor, the title bar's Delete button, VS Code's confirmation.
    await openRecordRow(view, 'Gift baskets');
    await eventually(
      () => tabLabels(),
      (labels) => labels.some((label) => label.includes('Gift baskets')),
      'the record open',
    );
    mark = await requestMark();
    await page().locator('.part.editor .editor-actions .action-label[aria-label^="Delete Record"]').click();
    const confirm = page().locator('.monaco-dialog-box', { hasText: /Delete record 4 of Orders\? It moves to the portal's trash\./ });
    await confirm.waitFor();
    await shot('confirm delete');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await notification(/^Record 4 moved to the portal's trash\./);
    assert.deepEqual(await writesSince(mark), [`DELETE /api/v1/app/${APP}/record/4 200`], 'one delete');
    assert.equal((await recordState(APP, '4')).trashed, true, 'the record is in the trash');
    await eventually(
      () => tabLabels(),
      (labels) => !labels.some((label) => label.includes('Gift baskets')),
      'its tab closed',
    );
    await eventually(
      () => page().locator('.part.sidebar .monaco-list-row .label-name', { hasText: 'Gift baskets' }).count(),
      (count) => count === 0,
      'its row gone from the view',
    );
    await shot('deleted');
  });
});
