// Journey (s): records where the code is (issue 33), as a person meets them in a repository whose team
// file (.vscode/portal.json) gives Tickets the reference `TCK-{id}` and a Start Work convention, and the
// Knowledge base `KB-{id}`. A reference in a Markdown file hovered shows the ticket's subject and state
// (one GET of the record); Ctrl+click opens its document. The hover's Start Work, the e-mail asked once:
// the branch is created and checked out in the repository on disk, the status bar shows the ticket, the
// commit message box holds the reference, and State and Assignee go to the portal in one PUT; Stop Work
// from the status bar sets State to Closed (one PUT). A `// TODO` in a .ts file, its light bulb and Create
// Record from TODO…, the app picked: the form shows the comment's title and the file's place; Create: one
// POST, the new reference written into the comment, and Ctrl+Z takes it back.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { eventually, recordState, requestMark, requestsSince, type LoggedRequest } from './support/emulator';
import { panelFrame } from './support/panels';
import {
  answerInput,
  clickNotificationButton,
  closeAllEditors,
  editorText,
  freshStart,
  goToLineWith,
  pick,
  runCommand,
} from './support/workbench';
import { page, RESULTS, screenshots, world } from './support/world';

const TICKETS = '201';
const KNOWLEDGE_BASE = '202';
const OPEN = '1';
const IN_PROGRESS = '2';
const CLOSED = '4';
const ME = 'ana@example.com';
const NOTES = 'NOTES.md';
const CODE = join('src', 'totals.ts');
const TODO_TITLE = 'cache the totals per customer';
/** The README's screenshots, cropped, as this run took them: copied to media/screenshots/ by hand when the look changes. */
const README_SHOTS = join(RESULTS, 'readme');

function git(folder: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Journey', '-c', `user.email=${ME}`, '-c', 'init.defaultBranch=main', ...args], {
    cwd: folder,
    encoding: 'utf8',
  }).trim();
}

/** The team's file: the reference patterns and Tickets' Start Work convention, for the world's portal. */
function teamFile(): string {
  const { base_url, client_id } = world().emulator.info;
  return `${JSON.stringify(
    {
      portals: [
        {
          name: 'Demo portal',
          baseUrl: base_url,
          clientId: client_id,
          flow: 'clientCredentials',
          apps: [
            {
              id: TICKETS,
              reference: 'TCK-{id}',
              startWork: { statusField: 'State', startStatus: 'In progress', doneStatus: 'Closed', userField: 'Assignee' },
            },
            { id: KNOWLEDGE_BASE, reference: 'KB-{id}' },
          ],
        },
      ],
    },
    null,
    2,
  )}\n`;
}

/** The Git extension's branch item in the status bar, naming `branch` (its label says it; its text is an icon and the name). */
function gitBranchItem(branch: string): Locator {
  return page().locator(`.part.statusbar [aria-label*="(Git) - ${branch}"]`).first();
}

/** Waits for the status bar to show `branch` checked out; else fails saying what it shows. */
async function gitBranch(branch: string, timeout = 30_000): Promise<void> {
  await gitBranchItem(branch)
    .waitFor({ timeout })
    .catch(async (error: unknown) => {
      const labels = await page()
        .locator('.part.statusbar .statusbar-item > [aria-label]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
      throw new Error(`The status bar shows no branch ${branch}: ${JSON.stringify(labels)}`, { cause: error });
    });
}

/** Ticks Git: Enabled in the Settings editor, and waits for VS Code to have written it. */
async function turnGitOn(settingsFile: string): Promise<void> {
  const p = page();
  await runCommand('Preferences: Open User Settings');
  const search = p.locator('.settings-editor .suggest-input-container textarea, .settings-editor .settings-header input').first();
  await search.waitFor();
  await p.keyboard.type('git.enabled');
  const checkbox = p
    .locator('.settings-editor .setting-item-contents', { hasText: 'Whether Git is enabled' })
    .first()
    .locator('.setting-value-checkbox')
    .first();
  await checkbox.waitFor();
  if ((await checkbox.getAttribute('aria-checked')) !== 'true') await checkbox.click();
  // Set to its default, the setting may be written or taken out: either way no longer false.
  await eventually(
    async () => readFileSync(settingsFile, 'utf8'),
    (text) => !/"git\.enabled":\s*false/.test(text),
    `git.enabled on in ${settingsFile}`,
  );
  await closeAllEditors();
}

/** Requests of a method to a path, after `mark`. */
async function requests(mark: number, method: string, path: RegExp): Promise<LoggedRequest[]> {
  return (await requestsSince(mark)).filter((request) => request.method === method && path.test(request.path));
}

/** The reference as VS Code shows it: a link in the editor's text (the link provider found it). */
function referenceInEditor(reference: string): Locator {
  return page()
    .locator('.part.editor .editor-instance .view-lines .view-line span.detected-link', { hasText: new RegExp(`^${reference}$`) })
    .first();
}

/** The text of the line holding the reference (the line's inner span, as wide as its text). */
function referenceLine(reference: string): Locator {
  return page()
    .locator('.part.editor .editor-instance .view-lines .view-line', {
      has: page().locator('span.detected-link', { hasText: new RegExp(`^${reference}$`) }),
    })
    .locator(':scope > span')
    .first();
}

/** Moves the pointer onto the reference, as a person does to read its hover: the hover, once it shows the record. */
async function hoverReference(reference: string, shows: RegExp): Promise<Locator> {
  const p = page();
  const link = referenceInEditor(reference);
  await link.waitFor();
  const hover = p.locator('.monaco-hover:visible').filter({ hasText: shows }).first();
  // The pointer moved off and on again when the hover shows something else first (another hover, or
  // the link's own tooltip alone before the record's answer): three tries.
  for (let attempt = 1; ; attempt += 1) {
    const box = await link.boundingBox();
    if (!box) throw new Error(`${reference} is not on screen`);
    await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
    try {
      await hover.waitFor({ timeout: 10_000 });
      return hover;
    } catch (error) {
      if (attempt === 3) throw error;
      await p.mouse.move(box.x + box.width / 2, box.y + 200, { steps: 4 });
    }
  }
}

/** Quick Open (Ctrl+P), the file's name typed, Enter on it: once its text shows. */
async function openFile(name: string, shows: string): Promise<void> {
  const p = page();
  await p.keyboard.press('Escape');
  await p.keyboard.press('Control+p');
  await p.locator('.quick-input-widget input.input').waitFor();
  await p.keyboard.type(name);
  await p.locator('.quick-input-widget .monaco-list-row.focused', { hasText: name.split('/').at(-1) }).waitFor();
  await p.keyboard.press('Enter');
  await p.locator('.part.editor .editor-instance .view-lines', { hasText: shows }).first().waitFor();
}

/** A screenshot of the page cropped to the union of the boxes, with a margin, saved as test-results/journeys/readme/<name>. */
async function cropped(name: string, boxes: Locator[], margin = 12): Promise<string> {
  const rects = [];
  for (const box of boxes) {
    const rect = await box.boundingBox();
    if (rect) rects.push(rect);
  }
  const viewport = page().viewportSize() ?? { width: 1280, height: 800 };
  const x = Math.max(0, Math.min(...rects.map((rect) => rect.x)) - margin);
  const y = Math.max(0, Math.min(...rects.map((rect) => rect.y)) - margin);
  const right = Math.min(viewport.width, Math.max(...rects.map((rect) => rect.x + rect.width)) + margin);
  const bottom = Math.min(viewport.height, Math.max(...rects.map((rect) => rect.y + rect.height)) + margin);
  mkdirSync(README_SHOTS, { recursive: true });
  const path = join(README_SHOTS, name);
  await page().screenshot({ path, clip: { x, y, width: right - x, height: bottom - y } });
  return path;
}

describe('Journey (s): records where the code is', function () {
  this.timeout(240_000);
  let workspace = '';
  let settingsFile = '';
  let settingsBefore = '';
  let teamFileBefore: string | undefined;
  let madeRepository = false;
  let startBranch = '';
  /** A seeded ticket that is Open and not assigned to me: the one the notes refer to. */
  let ticket = { id: '', subject: '' };

  before(async () => {
    await freshStart();
    workspace = world().profile.workspace;
    for (const candidate of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']) {
      const state = await recordState(TICKETS, candidate);
      if (state.data.f35 === OPEN && !(state.data.f40 ?? '').includes(ME)) {
        ticket = { id: candidate, subject: state.data.f31 };
        break;
      }
    }
    assert.ok(ticket.id, 'a seeded ticket is Open and not assigned to me');
    // The repository a person has open, the team file, notes naming the ticket and code with a TODO
    // written into it while the window is open. What another journey left in the workspace (a team file,
    // a repository) is kept and given back after.
    const teamPath = join(workspace, '.vscode', 'portal.json');
    teamFileBefore = existsSync(teamPath) ? readFileSync(teamPath, 'utf8') : undefined;
    madeRepository = !existsSync(join(workspace, '.git'));
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(teamPath, teamFile());
    writeFileSync(join(workspace, NOTES), `# Totals\n\nThe slow totals page is TCK-${ticket.id}: see the ticket.\n`);
    writeFileSync(
      join(workspace, CODE),
      `export function total(amounts: number[]): number {\n  // TODO: ${TODO_TITLE}\n  return amounts.reduce((sum, amount) => sum + amount, 0);\n}\n`,
    );
    if (madeRepository) git(workspace, 'init', '-q');
    git(workspace, 'add', join('.vscode', 'portal.json'), NOTES, CODE);
    git(workspace, 'commit', '-q', '-m', 'Totals');
    startBranch = git(workspace, 'rev-parse', '--abbrev-ref', 'HEAD');
    settingsFile = join(world().profile.userData, 'User', 'settings.json');
    settingsBefore = readFileSync(settingsFile, 'utf8');
  });

  after(async () => {
    await closeAllEditors();
    if (settingsFile) writeFileSync(settingsFile, settingsBefore);
    // Git off again: its branch goes from the status bar (if VS Code is slow to see the file, the next
    // journeys run with Git on, which changes nothing of theirs).
    if (startBranch)
      await page()
        .locator('.part.statusbar [aria-label*="(Git) - "]')
        .first()
        .waitFor({ state: 'hidden', timeout: 20_000 })
        .catch(() => undefined);
    if (!workspace) return;
    const teamPath = join(workspace, '.vscode', 'portal.json');
    if (teamFileBefore === undefined) rmSync(teamPath, { force: true });
    else writeFileSync(teamPath, teamFileBefore);
    if (!madeRepository) git(workspace, 'checkout', '-q', startBranch);
    rmSync(join(workspace, NOTES), { force: true });
    rmSync(join(workspace, CODE), { force: true });
    for (const folder of ['src', '.vscode'])
      if (existsSync(join(workspace, folder)) && readdirSync(join(workspace, folder)).length === 0)
        rmSync(join(workspace, folder), { recursive: true });
    if (madeRepository) rmSync(join(workspace, '.git'), { recursive: true, force: true });
  });

  // The team file came into the open window (as a pull brings it), with Git still off: nothing of Portal
  // Explorer has been used yet in this window.
  it('a reference hovered shows its ticket (one GET); Ctrl+click opens its document', async () => {
    const shot = screenshots('r-reference-hover');
    const reference = `TCK-${ticket.id}`;
    await openFile(NOTES, reference);
    const mark = await requestMark();
    const hover = await hoverReference(reference, new RegExp(`${reference}.*${ticket.subject}`));
    await hover.getByText('Open', { exact: true }).waitFor();
    const text = await hover.innerText();
    assert.match(text, /State: .*Open/, `the hover shows the ticket's state: ${text}`);
    assert.match(text, /Start Work/, 'and offers Start Work');
    await shot('hover');
    await cropped('reference-hover.png', [hover, referenceLine(reference)]);
    const reads = await requests(mark, 'GET', new RegExp(`^/api/v1/app/${TICKETS}/record/${ticket.id}$`));
    assert.equal(reads.length, 1, `one read of the ticket for its hover: ${JSON.stringify(reads)}`);
    // A token may be asked for: Portal Explorer may only now have started, with this Markdown file.
    assert.deepEqual(
      (await requestsSince(mark)).filter((request) => request.method !== 'GET' && !request.path.startsWith('/api/v1/oauth2/')),
      [],
      'hovering writes nothing',
    );

    // Ctrl held down over the link (VS Code underlines it), and a click.
    const p = page();
    await p.keyboard.press('Escape');
    const box = await referenceInEditor(reference).boundingBox();
    if (!box) throw new Error(`${reference} is not on screen`);
    await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await p.keyboard.down('Control');
    try {
      await p.locator('.part.editor .view-line span.detected-link-active', { hasText: reference }).first().waitFor();
      await p.mouse.down();
      await p.mouse.up();
    } finally {
      await p.keyboard.up('Control');
    }
    await page().locator('.part.editor .editor-instance .view-lines', { hasText: ticket.subject }).first().waitFor();
    const opened = await editorText();
    // The keys' names (inlay hints) show between a key and its value once VS Code has them.
    const field = (key: string, value: string): RegExp => new RegExp(`"${key}"[^:\\n]*: "${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`);
    assert.match(opened, field('f31', ticket.subject), "the ticket's document is in front, its subject there");
    assert.match(opened, field('f35', OPEN), 'and its state');
    await shot('ctrl-click opened the ticket');
  });

  it('Start Work from the hover: the branch checked out, the status bar, the commit message, one PUT; Stop Work', async () => {
    const shot = screenshots('r-start-work');
    const reference = `TCK-${ticket.id}`;
    // Git is off in the journeys' profile (fewer processes on a small machine): turned on in the Settings
    // editor, as a person has it, and back as it was after.
    await turnGitOn(settingsFile);
    // Git has opened the repository: its branch shows in the status bar.
    await gitBranch(startBranch, 60_000);
    await closeAllEditors();
    await openFile(NOTES, reference);
    const hover = await hoverReference(reference, new RegExp(`${reference}.*${ticket.subject}`));
    const mark = await requestMark();
    await hover.locator('a', { hasText: /^Start Work$/ }).click();
    // Assignee needs my e-mail on this portal: asked once.
    await answerInput(/Your e-mail on Demo portal/, ME);

    const status = page().locator('.part.statusbar .statusbar-item', { hasText: reference }).first();
    await status.waitFor({ timeout: 30_000 });
    assert.match(
      (await status.innerText()).trim(),
      new RegExp(`${reference} ${ticket.subject.slice(0, 20)}`),
      'the status bar names the ticket',
    );
    const head = await eventually(
      async () => git(workspace, 'rev-parse', '--abbrev-ref', 'HEAD'),
      (name) => name !== startBranch,
      'a branch checked out',
    );
    assert.match(
      head,
      new RegExp(`^${ticket.id}-${ticket.subject.toLowerCase().split(/[^a-z0-9]+/)[0]}`),
      `the branch is for the ticket: ${head}`,
    );
    await gitBranch(head);
    await shot('working on the ticket');
    // Its tooltip, under the pointer: the record, the branch, what a click offers (the side bar closed, so
    // that the README's picture shows only the status bar and the tooltip).
    await runCommand('View: Close Primary Side Bar');
    await page().locator('.part.sidebar').waitFor({ state: 'hidden' });
    await status.hover();
    const tooltip = page()
      .locator('.monaco-hover:visible', { hasText: /Working on/ })
      .first();
    await tooltip.waitFor();
    assert.match(await tooltip.innerText(), new RegExp(`on branch ${head}`), 'the tooltip names the branch');
    // From the branch to Portal Explorer's own item of the portal signed in to.
    const portalItem = page().locator('.part.statusbar [aria-label*="Demo portal"]').first();
    await cropped('work-status.png', [gitBranchItem(head), status, portalItem, tooltip], 6);
    await page().mouse.move(700, 300);
    await tooltip.waitFor({ state: 'hidden' });

    const ticketPuts = (since: number) => requests(since, 'PUT', new RegExp(`^/api/v1/app/${TICKETS}/record/${ticket.id}$`));
    await eventually(
      () => ticketPuts(mark),
      (found) => found.length >= 1,
      'the ticket updated',
    );
    const after = await recordState(TICKETS, ticket.id);
    assert.equal(after.data.f35, IN_PROGRESS, 'State is In progress');
    assert.ok((after.data.f40 ?? '').split(',').includes(ME), `Assignee holds me: ${after.data.f40}`);
    assert.equal(after.data.f31, ticket.subject, 'the subject is as it was');
    const puts = await ticketPuts(mark);
    assert.equal(puts.length, 1, `one PUT: ${JSON.stringify(puts)}`);
    assert.deepEqual(
      (await requestsSince(mark)).filter(
        (request) => !['GET', 'PUT'].includes(request.method) && !request.path.startsWith('/api/v1/oauth2/'),
      ),
      [],
      'nothing else is written',
    );

    // The commit message box, in the Source Control view.
    await page().keyboard.press('Control+Shift+g');
    const commitInput = page().locator('.part.sidebar .scm-editor .view-lines').first();
    await commitInput.waitFor();
    await eventually(
      async () => (await commitInput.innerText()).replace(/\u00a0/g, ' ').trim(),
      (value) => value.startsWith(reference),
      `the commit message to start with ${reference}`,
    );
    await shot('commit message holds the reference');

    const stopMark = await requestMark();
    await status.click();
    await pick(new RegExp(reference), 'Stop Work');
    await clickNotificationButton(/Stop work on/, 'Set State to Closed');
    await status.waitFor({ state: 'hidden' });
    await eventually(
      () => ticketPuts(stopMark),
      (found) => found.length >= 1,
      'the ticket closed',
    );
    assert.equal((await recordState(TICKETS, ticket.id)).data.f35, CLOSED, 'State is Closed');
    assert.equal((await ticketPuts(stopMark)).length, 1, 'one PUT');
    await shot('work stopped');
  });

  it('Create Record from TODO: the light bulb, the app picked, the form pre-filled, Create: one POST, the reference in the comment', async () => {
    const shot = screenshots('r-record-from-todo');
    await closeAllEditors();
    await openFile('totals.ts', 'TODO');
    await goToLineWith('TODO');
    // The light bulb shows once VS Code has the line's code actions; a click on it lists them.
    const bulb = page().locator('.part.editor .lightBulbWidget:visible').first();
    await bulb.waitFor();
    await bulb.click();
    const action = page().locator('.action-widget .monaco-list-row', { hasText: 'Create Record from TODO…' }).first();
    await action.waitFor();
    await shot('code action');
    await action.click();
    await pick(/Which app is the record for/, 'KB-');

    const frame = await panelFrame('New record · Knowledge base');
    const field = (key: string) => frame.locator(`.field[data-field="${key}"]`);
    await field('f51').waitFor();
    const shown = async (key: string, tag: string): Promise<string> =>
      field(key)
        .locator(tag)
        .first()
        .evaluate((element) => (element as unknown as { value?: string }).value ?? '');
    await eventually(
      () => shown('f51', 'vscode-text-field'),
      (value) => value === TODO_TITLE,
      'the title from the comment',
    );
    const body = await shown('f52', 'vscode-text-area');
    assert.match(body, /src\/totals\.ts:2/, `the body says where the TODO is: ${body}`);
    await shot('form pre-filled');

    const mark = await requestMark();
    await frame.locator('#create').click();
    const creates = () => requests(mark, 'POST', new RegExp(`^/api/v1/app/${KNOWLEDGE_BASE}/record/?$`));
    await eventually(creates, (found) => found.length >= 1, 'the record created');
    await frame.getByText(/Created record \d+ in Knowledge base/).waitFor();
    await shot('created');
    // Back to the code: its tab, dirty with the reference written in.
    await page().locator('.part.editor .tabs-container .tab', { hasText: 'totals.ts' }).click();
    const text = await eventually(editorText, (shown) => /TODO KB-\d+:/.test(shown), 'the reference in the comment');
    const line = text.split('\n').find((shown) => shown.includes('TODO')) ?? '';
    const id = /KB-(\d+)/.exec(line)?.[1] ?? '';
    assert.equal(line.trim(), `// TODO KB-${id}: ${TODO_TITLE}`, 'the reference is written after the word');
    const created = await recordState(KNOWLEDGE_BASE, id);
    assert.equal(created.data.f51, TODO_TITLE, 'the record is titled by the comment');
    assert.equal((await creates()).length, 1, 'one POST');
    await shot('reference written back');

    // One edit, which Undo takes back.
    await page().keyboard.press('Control+z');
    await eventually(editorText, (shown) => shown.includes(`// TODO: ${TODO_TITLE}`), 'Ctrl+Z to take the reference back');
  });
});
