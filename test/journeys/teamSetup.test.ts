// Journey (r): a team's setup in the repository, with two people (issue 32). In the suite's VS Code, signed
// in to the demo portal, a person adds a view by its id with a name and saves a query of it, then moves both
// into the repository's .vscode/portal.json with *Share with Workspace* from the Portal view's context menu.
// A teammate's VS Code, a second code-server with a fresh profile (no portal, no secret) on the same
// folder, shows *Sign in to Demo portal* without sending the portal a request; signing in asks only for the
// Secret Key; then its Portal view shows the sites, apps, the shared view and the shared query as the
// first person's does. Pictures of the file with the schema's completion and of the merged tree are kept
// for the README (media/screenshots/workspace-file.png and shared-tree.png are cropped from them).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { eventually, requestMark, requestsSince, viewRowsAsAnotherUser } from './support/emulator';
import { panelFrame } from './support/panels';
import { childRows, clickRow, collapseTree, contextMenu, expandPath, rowAt, showView } from './support/tree';
import {
  answerInput,
  clearNotifications,
  closeAllEditors,
  freshStart,
  notification,
  showPortalView,
  workbenchReady,
} from './support/workbench';
import { asSecondProfile, page, RESULTS, screenshots, startSecondProfile, world, type SecondProfile } from './support/world';

const PORTAL = 'Demo portal';
const OPERATIONS = [PORTAL, 'Operations'];
const CUSTOMERS = [...OPERATIONS, 'Customers'];
const VIEWS = [...CUSTOMERS, 'Views'];
const GOLD = [...VIEWS, 'Gold customers'];
const QUERY = 'Corporations';
const TOKEN_PATH = '/api/v1/oauth2/token';

interface FileView {
  id: string;
  name: string;
}
interface FileQuery {
  name: string;
  view: string;
  filters: { column: string; operator: string; value?: string }[];
}
interface FilePortal {
  name: string;
  baseUrl: string;
  clientId: string;
  flow: string;
  apps: { id: string; views?: FileView[]; queries?: FileQuery[] }[];
}

function workspaceFile(): string {
  return join(world().profile.workspace, '.vscode', 'portal.json');
}

/** The workspace as the other journeys know it: no team file (they add their views by hand). */
function removeWorkspaceFile(): void {
  const file = workspaceFile();
  rmSync(file, { force: true });
  const folder = join(file, '..');
  if (existsSync(folder) && readdirSync(folder).length === 0) rmdirSync(folder);
}

/** A README picture of `area` of the screen, saved as test-results/journeys/readme/<name>. */
async function crop(area: { x: number; y: number; width: number; height: number }, name: string): Promise<void> {
  const viewport = page().viewportSize() ?? { width: 1440, height: 900 };
  const x = Math.max(0, Math.round(area.x));
  const y = Math.max(0, Math.round(area.y));
  const clip = {
    x,
    y,
    width: Math.min(viewport.width - x, Math.round(area.width)),
    height: Math.min(viewport.height - y, Math.round(area.height)),
  };
  await page().screenshot({ path: join(RESULTS, 'readme', name), clip });
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator.toString()} is not shown`);
  return found;
}

/** What the Portal view shows along the shared entries' path: sites, apps of Operations, views, queries. */
async function shownSetup(): Promise<{ sites: string[]; apps: string[]; views: string[]; queries: string[]; records: string[] }> {
  await collapseTree();
  await expandPath(GOLD);
  // The view's records read (the seed's four Gold customers, the last of them shown).
  await rowAt([...GOLD, 'Tyrell Systems']);
  const labels = (rows: { label: string }[]): string[] => rows.map((row) => row.label);
  return {
    sites: labels(await childRows([PORTAL])).filter((label) => label !== 'My Records'),
    apps: labels(await childRows(OPERATIONS)),
    views: labels((await childRows(VIEWS)).filter((row) => /\bshared\b/.test(row.description))),
    queries: labels((await childRows(GOLD)).filter((row) => /^shared query\b/.test(row.description))),
    records: labels((await childRows(GOLD)).filter((row) => !/query\b/.test(row.description))),
  };
}

describe('Journey (r): the team setup in the repository, two profiles', function () {
  this.timeout(240_000);
  let second: SecondProfile | undefined;

  before(async () => {
    removeWorkspaceFile();
    await freshStart();
  });

  after(async () => {
    await second?.close();
    second = undefined;
    await closeAllEditors();
    removeWorkspaceFile();
  });

  it('Share with Workspace in one VS Code; a fresh one on the same folder signs in with the Secret Key alone and shows the same', async () => {
    const shot = screenshots('r-team-setup');
    const { base_url, client_id, client_secret } = world().emulator.info;

    // The first person: a view of their own, and another added by id, named, with a saved query.
    await collapseTree();
    await showView(CUSTOMERS, '1', { expand: false });
    await contextMenu(VIEWS, 'Add View…');
    await answerInput(/The id of a view/, '2');
    await answerInput(/A name for the view/, 'Gold customers');
    await rowAt(GOLD);
    await contextMenu(GOLD, 'Query View…');
    const frame = await panelFrame('Gold customers');
    await frame.locator('#add-filter:not([disabled])').waitFor();
    await frame.locator('#add-filter').click();
    const column = frame.locator('.filter-column').first();
    await column.click();
    await column.getByRole('option', { name: 'Name', exact: true }).click();
    const operator = frame.locator('.filter-operator').first();
    await operator.click();
    await operator.getByRole('option', { name: 'contains', exact: true }).click();
    await frame.locator('.filter-value input').first().click();
    await page().keyboard.type('Corp');
    await frame.locator('#save-query').click();
    await answerInput(/Name of the query/, QUERY);
    await notification(new RegExp(`Saved the query "${QUERY}"`));
    await closeAllEditors();
    await expandPath(GOLD);
    await rowAt([...GOLD, QUERY]);

    // Share with Workspace: the view, then the query, each from its own row's context menu.
    await contextMenu(GOLD, 'Share with Workspace');
    await notification(/^Shared the view "Gold customers" in \.vscode\/portal\.json/);
    // The tree shows it shared (read again from the file) before the next right-click, which a refresh under
    // the pointer would otherwise close.
    await (await rowAt(GOLD)).locator('.label-description', { hasText: /\bshared\b/ }).waitFor();
    await page().mouse.move(700, 600);
    await contextMenu([...GOLD, QUERY], 'Share with Workspace');
    await notification(new RegExp(`^Shared the saved query "${QUERY}" in \\.vscode/portal\\.json`));
    await (await rowAt([...GOLD, QUERY])).locator('.label-description', { hasText: /^shared query/ }).waitFor();
    const text = await eventually(
      async () => (existsSync(workspaceFile()) ? readFileSync(workspaceFile(), 'utf8') : ''),
      (content) => content.includes(`"${QUERY}"`),
      'the view and the query in .vscode/portal.json on disk',
    );
    assert.ok(!text.includes(client_secret), 'the file holds no secret');
    const file = JSON.parse(text) as { portals: FilePortal[] };
    assert.deepEqual(
      file.portals.map(({ name, baseUrl, clientId, flow }) => ({ name, baseUrl, clientId, flow })),
      [{ name: PORTAL, baseUrl: base_url.replace(/\/+$/, ''), clientId: client_id, flow: 'clientCredentials' }],
      'the file names the portal as the first person connected it',
    );
    const app = file.portals[0].apps.find((candidate) => candidate.id === '101');
    assert.deepEqual(app?.views, [{ id: '2', name: 'Gold customers' }], 'the shared view, by id and name; not the personal View 1');
    assert.deepEqual(
      app?.queries?.map((query) => ({ name: query.name, view: query.view, filters: query.filters.length })),
      [{ name: QUERY, view: '2', filters: 1 }],
      'the shared query',
    );

    const first = await shownSetup();
    assert.deepEqual(first.views, ['Gold customers'], 'the first person sees the view marked shared');
    assert.deepEqual(first.queries, [QUERY], 'and the query marked shared');
    assert.ok(
      (await childRows(VIEWS)).some((row) => row.label === 'View 1' && !/\bshared\b/.test(row.description)),
      'their own View 1 stays personal, beside the shared one',
    );
    await page().mouse.move(700, 600);
    await shot('shared the view and the query');

    // The file with the schema's completion, as VS Code's JSON editor offers it for a new key of the app.
    // (The palette's command first: it would close the completion list.)
    await clearNotifications();
    await page().locator('.part.editor .tabs-container .tab', { hasText: 'portal.json' }).first().click();
    const editor = page().locator('.part.editor .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: '"id": "101"' }).waitFor();
    await editor.locator('.view-line', { hasText: '"id": "101"' }).first().click();
    await page().keyboard.press('End');
    await page().keyboard.press('Enter');
    await page().keyboard.press('Control+Space');
    const suggest = page().locator('.editor-widget.suggest-widget.visible');
    await suggest.locator('.monaco-list-row', { hasText: 'titleField' }).waitFor();
    // The last key the schema offers, with its description beside the list (Ctrl+Space again shows it).
    await page().keyboard.press('ArrowUp');
    await suggest.locator('.monaco-list-row.focused', { hasText: 'titleField' }).waitFor();
    const details = page().locator('.suggest-details-container .suggest-details');
    if (!(await details.isVisible().catch(() => false))) await page().keyboard.press('Control+Space');
    await details.filter({ hasText: /\w/ }).waitFor();
    await shot('completion in the workspace file');
    const [lines, list, docs] = [await box(editor), await box(suggest), await box(details)];
    await crop(
      {
        x: lines.x,
        y: lines.y,
        width: Math.max(list.x + list.width, docs.x + docs.width) + 40 - lines.x,
        height: list.y + list.height + 60 - lines.y,
      },
      'workspace-file.png',
    );
    await page().keyboard.press('Escape');
    await closeAllEditors();

    // The teammate: a fresh VS Code on the same folder. Nothing reaches the portal before they sign in.
    const mark = await requestMark();
    second = await startSecondProfile();
    await asSecondProfile(second, async () => {
      const shotB = screenshots('r-team-setup-teammate');
      try {
        await workbenchReady();
        await showPortalView();
        const signIn = await rowAt([`Sign in to ${PORTAL}`], 60_000);
        await signIn.locator('.label-description', { hasText: /from the workspace/ }).waitFor();
        await page().mouse.move(700, 600);
        await shotB('sign in to the portal of the workspace');
        await clickRow([`Sign in to ${PORTAL}`]);
        const input = page().locator('.quick-input-widget', { hasText: /Secret Key of the application/ });
        await input.waitFor();
        assert.equal(await input.locator('input.input').getAttribute('type'), 'password', 'the Secret Key is typed hidden');
        await shotB('asked for the secret key');
        assert.deepEqual(await requestsSince(mark), [], 'no request to the portal before signing in');

        await answerInput(/Secret Key of the application/, client_secret);
        await notification(/Connected to the portal "Demo portal" from the workspace and signed in/);
        assert.equal(await page().locator('.quick-input-widget:visible').count(), 0, 'nothing else is asked');
        const sent = await requestsSince(mark);
        assert.equal(sent[0]?.path, TOKEN_PATH, 'the first request is the sign-in');
        assert.equal(sent[0]?.status, 200, 'and it succeeds');

        const teammate = await shownSetup();
        await page().mouse.move(700, 600);
        await shotB('the same sites, apps, view and query');
        assert.deepEqual(teammate, first, 'the teammate sees the sites, apps, shared view and query the first person sees');
        assert.deepEqual(
          (await childRows(VIEWS)).map((row) => row.label),
          ['Gold customers'],
          'and none of the first person’s own views',
        );

        // The shared query works for the teammate: a click on its row runs it with the file's filter.
        const beforeRun = await requestMark();
        await clickRow([...GOLD, QUERY]);
        const panel = await panelFrame('Gold customers');
        await panel.locator('#row-count', { hasText: /rows?$/ }).waitFor();
        const ran = (await requestsSince(beforeRun)).filter((request) => request.path === '/api/v1/app/101/view/2');
        assert.equal(ran.length, 1, 'one read of the view');
        const sentFilter = new URLSearchParams(ran[0].query);
        assert.deepEqual(
          [sentFilter.get('filter_columns'), sentFilter.get('filter_values')],
          ['2', 'Corp'],
          'with the filter the first person saved (Name contains Corp)',
        );
        const portalRows = await viewRowsAsAnotherUser('101', '2', {
          filter_columns: '2',
          filter_operators: sentFilter.get('filter_operators') ?? '',
          filter_values: 'Corp',
        });
        const shownCount = Number(((await panel.locator('#row-count').textContent()) ?? '').replace(/[^0-9]/g, ''));
        assert.equal(shownCount, portalRows, "the panel's count is the portal's own");
        await panel.locator('#saved-queries vscode-option', { hasText: QUERY }).waitFor({ state: 'attached' });
        await shotB('the shared query run');
        await closeAllEditors();

        // The merged tree (a README picture): the teammate adds a view of their own beside the shared one.
        await showView(CUSTOMERS, '1', { expand: false });
        await expandPath(GOLD);
        const sidebar = page().locator('.part.sidebar');
        const before = await box(sidebar);
        // Wider, so that the marks are read whole (this VS Code's layout goes with it).
        await page().mouse.move(before.x + before.width + 1, before.y + before.height / 2);
        await page().mouse.down();
        await page().mouse.move(before.x + before.width + 140, before.y + before.height / 2, { steps: 5 });
        await page().mouse.up();
        await eventually(
          async () => (await box(sidebar)).width,
          (width) => width > before.width + 100,
          'the sidebar wider',
        );
        await clearNotifications();
        // The focus away from the tree: no row shows its inline actions.
        await page().locator('.part.editor').click();
        await page().mouse.move(900, 600);
        await shotB('a view of their own beside the shared ones');
        const wide = await box(sidebar);
        const last = await box(await rowAt([PORTAL, 'Support']));
        await crop({ x: wide.x, y: wide.y, width: wide.width, height: last.y + last.height + 6 - wide.y }, 'shared-tree.png');
      } catch (error) {
        await shotB('failed').catch(() => undefined);
        throw error;
      }
    });
    await second.close();
    second = undefined;
  });
});
