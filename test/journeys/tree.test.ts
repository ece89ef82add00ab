// Journey (i): the Portal view through a refresh and a failed load, as a person sees it at the sidebar's
// default width. A view's record count stays after Refresh; a portal that fails to list its sites shows a
// short label with Retry beside it, both whole, the portal's message on hover; Retry brings the sites back.
import * as assert from 'node:assert/strict';
import { emulatorCall, eventually, requestMark, requestsSince, viewRowsAsAnotherUser } from './support/emulator';
import { collapseTree, expandPath, rowAt, showView } from './support/tree';
import { freshStart, showPortalView } from './support/workbench';
import { page, screenshots } from './support/world';

const ORDERS = ['Demo portal', 'Operations', 'Orders'];

/** The row's description as shown (e.g. "view 3 · 8 records"). */
async function description(path: readonly string[]): Promise<string> {
  return ((await (await rowAt(path)).locator('.label-description').first().textContent()) ?? '').trim();
}

/** Polls the row's description until `wanted` holds, up to 15 s; resolves with the last one seen. */
async function descriptionBecomes(path: readonly string[], wanted: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 15_000;
  let last = await description(path).catch(() => '');
  while (!wanted(last) && Date.now() < deadline) {
    await page().waitForTimeout(200);
    last = await description(path).catch(() => '');
  }
  return last;
}

/** The Portal view's own Refresh (the toolbar shows its actions while the pointer is over the view). */
async function refreshAll(): Promise<void> {
  const header = page().locator('.part.sidebar .pane-header', { hasText: 'Explorer' }).first();
  await header.hover();
  await header.locator('.action-label[aria-label^="Refresh"]').click();
}

describe('Journey (i): the Portal view through a refresh and a failed load', function () {
  this.timeout(240_000);

  before(async () => {
    await freshStart();
  });

  after(() => emulatorCall('DELETE', 'faults'));

  it("a view's record count stays after Refresh; a failed load is short with Retry beside it, its message on hover", async () => {
    const shot = screenshots('i-tree-refresh-failure');
    await collapseTree();
    const view = await showView(ORDERS, '3');
    await rowAt([...view, 'Office chairs']);
    const counted = (text: string): boolean => /\b[\d,]+ records?\b/.test(text);
    const before = await descriptionBecomes(view, counted);
    assert.ok(counted(before), `the view shows its record count: "${before}"`);
    await shot('view with its count');

    // Folded, Refresh, and unfolded again down to the view: VS Code draws the view's row before its records
    // are read again (the count once stayed missing then). Looked at once the view was read again.
    const mark = await requestMark();
    await collapseTree();
    await refreshAll();
    await expandPath(view);
    await rowAt([...view, 'Office chairs']);
    await eventually(
      () => requestsSince(mark),
      (requests) => requests.some((request) => request.path === '/api/v1/app/102/view/3' && request.status === 200),
      'the view read again',
    );
    const after = await descriptionBecomes(view, counted);
    await shot('after refresh');
    // The portal's count: an earlier journey may have deleted a record the emulator's reset brought back,
    // and the view shown before this Refresh still counted without it.
    const portalCount = await viewRowsAsAnotherUser('102', '3', {});
    assert.match(
      after,
      new RegExp(`\\b${portalCount} records?$`),
      `the record count is still there after Refresh, and is the portal's (before: "${before}")`,
    );

    // From now on the portal fails to list its sites (every try, until the fault is cleared).
    await emulatorCall('POST', 'faults', { path: '^/api/v1/site$', status: 500, count: 1000 });
    await collapseTree();
    await refreshAll();
    const portal = await rowAt(['Demo portal']);
    await portal.click();
    await page().keyboard.press('ArrowRight');
    const failed = await rowAt(['Demo portal', 'Failed to load']);
    await shot('failed load');
    assert.equal(((await failed.locator('.label-name').first().textContent()) ?? '').trim(), 'Failed to load (HTTP 500)');
    assert.equal(((await failed.locator('.label-description').first().textContent()) ?? '').trim(), 'Retry');
    // Whole, also under the pointer (where a person reaches to click it): the text ends inside the row,
    // before any action the row shows then.
    await failed.hover();
    const cut = await failed.evaluate((row) => {
      const label = row.querySelector('.monaco-icon-label-container');
      const text = row.querySelector('.label-description');
      const actions = row.querySelector('.actions .action-label');
      if (!label || !text) return 'no label';
      const range = row.ownerDocument.createRange();
      range.selectNodeContents(text);
      const textRight = range.getBoundingClientRect().right;
      const limit = Math.min(label.getBoundingClientRect().right, actions?.getBoundingClientRect().left ?? Infinity);
      return label.scrollWidth > label.clientWidth + 1 || textRight > limit + 1
        ? `cut: text ends at ${textRight}, room ends at ${limit}`
        : '';
    });
    assert.equal(cut, '', 'the label and Retry are shown whole in the sidebar');

    // The hover shows after a delay, for a pointer that rests on the row: as a person would, move away
    // and back if it does not come (three tries).
    const hover = page()
      .locator('.monaco-hover, .workbench-hover')
      .filter({ hasText: /problem on its side|HTTP 500/ })
      .first();
    for (let attempt = 1; ; attempt += 1) {
      try {
        await hover.waitFor({ timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        await page().mouse.move(700, 400);
        await failed.hover();
      }
    }
    await shot('message on hover');

    await emulatorCall('DELETE', 'faults');
    await failed.click();
    await rowAt(['Demo portal', 'Operations']);
    await rowAt(['Demo portal', 'Support']);
    await showPortalView();
    await shot('retried');
  });
});
