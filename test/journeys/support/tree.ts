// The Portal view's tree, walked as a person does: rows found by their labels under their parents (two
// portals show the same sites), expanded with the Right arrow key, a view added through the context menu.
import type { Locator } from 'playwright-core';
import { answerInput, showPortalView } from './workbench';
import { page } from './world';

const ROWS = '.part.sidebar .pane:has(.pane-header .title:text-is("Explorer")) .monaco-list-row';

interface RowInfo {
  index: number;
  level: number;
  label: string;
  description: string;
  expanded: boolean;
}

async function rows(): Promise<RowInfo[]> {
  const found = await page()
    .locator(ROWS)
    .evaluateAll((elements) =>
      elements.map((element) => ({
        index: Number(element.getAttribute('data-index')),
        level: Number(element.getAttribute('aria-level')),
        label: (element.querySelector('.label-name')?.textContent ?? (element.getAttribute('aria-label') ?? '').split('\n')[0]).trim(),
        description: (element.querySelector('.label-description')?.textContent ?? '').trim(),
        expanded: element.getAttribute('aria-expanded') === 'true',
      })),
    );
  return found.sort((a, b) => a.index - b.index);
}

/** Where the row at `path` (labels from a portal down) is among the rows shown; its parents must be expanded. */
function positionOf(all: readonly RowInfo[], path: readonly string[]): number {
  let position = -1;
  let level = 0;
  for (const name of path) {
    const start = position + 1;
    let found = -1;
    for (let i = start; i < all.length; i += 1) {
      if (all[i].level <= level && i > start) break;
      if (all[i].level === level + 1 && all[i].label.startsWith(name)) {
        found = i;
        break;
      }
    }
    if (found < 0) return -1;
    position = found;
    level += 1;
  }
  return position;
}

/** The row at `path`, once it is shown. */
async function findRow(path: readonly string[]): Promise<Locator | undefined> {
  const all = await rows();
  const position = positionOf(all, path);
  if (position < 0) return undefined;
  // The name asked for too: a row inserted above (My Records, once a first view is added) shifts every
  // index, and a locator by index alone would then click the row above the one meant. The name, not the
  // whole label, which may change meanwhile ("Loading… 249 rows" goes on counting).
  const { index } = all[position];
  return page()
    .locator(`${ROWS}[data-index="${index}"][aria-level="${path.length}"]`)
    .filter({ hasText: path[path.length - 1] });
}

/**
 * The rows shown right under the row at `path` (the top level when empty), each as a person reads it: its
 * label and description. The row must be expanded.
 */
export async function childRows(path: readonly string[]): Promise<{ label: string; description: string }[]> {
  if (path.length > 0) await rowAt(path);
  // Read once: the rows and the parent's place among them from the same moment (a locator read later may
  // point at a row that moved).
  const all = await rows();
  const start = path.length > 0 ? positionOf(all, path) + 1 : 0;
  if (start === 0 && path.length > 0) throw new Error(`${path.join(' > ')} went from the Portal view`);
  const children: { label: string; description: string }[] = [];
  for (let i = start; i < all.length && all[i].level > path.length; i += 1)
    if (all[i].level === path.length + 1) children.push({ label: all[i].label, description: all[i].description });
  return children;
}

/**
 * Does `act` on the row at `path`, finding the row again when it fails: the rows may move between finding
 * a row and acting on it (My Records appears above the sites once the views are read), and a locator of
 * the row from before then points at the row now in its place.
 */
async function onRowFoundAgain<T>(path: readonly string[], timeoutMs: number, act: (row: Locator) => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await rowAt(path, Math.max(1, deadline - Date.now()));
    try {
      return await act(row);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** Clicks the inline action (its label begins with `action`) of the row at `path`: the pointer on the row shows it. */
export async function clickRowAction(path: readonly string[], action: string, timeoutMs = 20_000): Promise<void> {
  await onRowFoundAgain(path, timeoutMs, async (row) => {
    await row.hover({ timeout: 2_000 });
    await row.locator(`.action-label[aria-label^="${action}"]`).click({ timeout: 2_000 });
  });
}

/** Clicks the row at `path`, finding it again when the rows moved under the pointer before the click. */
export async function clickRow(path: readonly string[], options: { button?: 'right' } = {}, timeoutMs = 20_000): Promise<Locator> {
  return onRowFoundAgain(path, timeoutMs, async (row) => {
    await row.click({ ...options, timeout: 2_000 });
    return row;
  });
}

export async function rowAt(path: readonly string[], timeoutMs = 20_000): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await findRow(path);
    if (row) return row;
    if (Date.now() > deadline)
      throw new Error(
        `No row ${path.join(' > ')} in the Portal view; rows: ${(await rows()).map((r) => `${'  '.repeat(r.level)}${r.label}`).join(' | ')}`,
      );
    await page().waitForTimeout(150);
  }
}

/**
 * Whether the row at `path` is expanded, read from the rows as they are now: a locator of the row, kept
 * from before, would wait for a row that has moved (My Records appears above the sites meanwhile).
 */
async function isExpanded(path: readonly string[]): Promise<boolean> {
  const all = await rows();
  const position = positionOf(all, path);
  return position >= 0 && all[position].expanded;
}

/** Expands every row along `path`, clicking each and pressing the Right arrow key. */
export async function expandPath(path: readonly string[]): Promise<void> {
  await showPortalView();
  for (let depth = 1; depth <= path.length; depth += 1) {
    await rowAt(path.slice(0, depth));
    if (await isExpanded(path.slice(0, depth))) continue;
    // The tooltip of the row clicked before can cover this one: the pointer leaves, and the tooltip with it.
    await page().mouse.move(0, 0);
    await page()
      .locator('.context-view .hover-contents')
      .waitFor({ state: 'hidden', timeout: 3_000 })
      .catch(() => undefined);
    await clickRow(path.slice(0, depth));
    await page().keyboard.press('ArrowRight');
    const deadline = Date.now() + 20_000;
    while (!(await isExpanded(path.slice(0, depth)))) {
      if (Date.now() > deadline) throw new Error(`${path.slice(0, depth).join(' > ')} did not expand`);
      await page().waitForTimeout(100);
    }
  }
}

/** Makes view `viewId` of the app at `appPath` show in the tree (Add View… from the Views row's context menu when missing). */
export async function showView(appPath: readonly string[], viewId: string, { expand = true } = {}): Promise<readonly string[]> {
  await expandPath([...appPath, 'Views']);
  const viewPath = [...appPath, 'Views', `View ${viewId}`];
  if (!(await findRow(viewPath))) {
    await contextMenu([...appPath, 'Views'], 'Add View…');
    await answerInput(/The id of a view/, viewId);
    await answerInput(/A name for the view/, '');
  }
  if (expand) await expandPath(viewPath);
  else await rowAt(viewPath);
  return viewPath;
}

/** Opens a record of a view by a click on its row (the label is the record's title). */
export async function openRecordRow(viewPath: readonly string[], title: string): Promise<void> {
  await clickRow([...viewPath, title]);
  await page().locator('.part.editor .view-lines').first().waitFor();
}

/** The view's Collapse All action (shown when the pointer is over the view). */
export async function collapseTree(): Promise<void> {
  await showPortalView();
  const header = page().locator('.part.sidebar .pane-header', { hasText: 'Explorer' }).first();
  await header.hover();
  await header.locator('.action-label[aria-label^="Collapse All"]').click();
}

/** Right-click on the row at `path`, then the context menu's item `action`. */
export async function contextMenu(path: readonly string[], action: string): Promise<void> {
  await clickRow(path, { button: 'right' });
  const item = page().locator('.monaco-menu .action-item', { hasText: action }).first();
  await item.waitFor();
  await item.hover();
  await page().keyboard.press('Enter');
  await item.waitFor({ state: 'detached' });
}
