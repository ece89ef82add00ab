// The Portal explorer against the emulator: every level, one request per expansion at most, views added
// and removed, paging the 100,000-record view, refresh, failures and sign-in, and the tree's commands.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExplorerNode } from '../../src/tree/nodes';
import { emulatorControl, resetEmulator } from './support/emulator';
import {
  child,
  children,
  emulatorPortal,
  records,
  freshExplorer,
  isPortalItem,
  item,
  labelOf,
  labels,
  lastRequestSeq,
  path,
  portalNode,
  treeRequestsSince,
} from './support/explorer';
import { testApi } from './support/extension';
import { approvePortalSignIn, connectEmulator, removeAllPortals } from './support/portals';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';

interface EmulatorRecord {
  data: Record<string, string>;
  draft: boolean;
}

const record = (appId: string, recordId: string) => emulatorControl<EmulatorRecord>('GET', `records/${appId}/${recordId}`);

function iconId(treeItem: vscode.TreeItem): string | undefined {
  return treeItem.iconPath instanceof vscode.ThemeIcon ? treeItem.iconPath.id : undefined;
}

function tooltipText(treeItem: vscode.TreeItem): string {
  const { tooltip } = treeItem;
  return typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
}

describe('the Portal explorer', function () {
  this.timeout(60_000);
  const user = useScriptedPrompter();
  let portalId = '';

  beforeEach(async () => {
    await resetEmulator();
    portalId = await emulatorPortal();
    await freshExplorer(portalId);
  });

  /** Adds a view through "Add View…" on the app's Views group, answering as a user. */
  async function addView(site: string, app: string, viewId: string, name: string): Promise<ExplorerNode> {
    const group = await path(portalId, site, app, 'Views');
    user()
      .answerInputBox(viewId, /view id|id of a view/i)
      .answerInputBox(name, /name for the view/i);
    const added = await vscode.commands.executeCommand<{ viewId: string } | undefined>('portal.addView', group);
    assert.equal(added?.viewId, viewId);
    return child(group, name || `View ${viewId}`);
  }

  it('shows portal > sites > apps > Views and Columns, asking once per expansion', async () => {
    const seq = await lastRequestSeq();
    const portal = await path(portalId);
    assert.equal((await item(portal)).contextValue, 'portal.portal.signedIn');

    const sites = await children(portal);
    assert.deepEqual(await labels(sites), ['Operations', 'Support']);
    assert.deepEqual(await Promise.all(sites.map(async (site) => (await item(site)).description)), ['Grace Hopper', 'Alan Turing']);
    assert.deepEqual(
      (await treeRequestsSince(seq, ['201'])).map((request) => request.path),
      ['/api/v1/site'],
    );

    const support = await child(portal, 'Support');
    assert.deepEqual(await labels(await children(support)), ['Tickets', 'Knowledge base']);
    const tickets = await child(support, 'Tickets');
    assert.equal((await item(tickets)).contextValue, 'portal.app');
    assert.deepEqual(await labels(await children(tickets)), ['Views', 'Columns']);
    assert.equal((await treeRequestsSince(seq, ['201'])).length, 1, 'sites, apps and the groups come from one list of sites');

    const columns = await children(await child(tickets, 'Columns'));
    assert.deepEqual(
      (await treeRequestsSince(seq, ['201'])).map((request) => request.path),
      ['/api/v1/site', '/api/v1/app/201/columns'],
    );
    assert.deepEqual(await labels(columns), [
      'Ticket no.',
      'Subject',
      'Customer id',
      'Customer',
      'Priority',
      'State',
      'Opened',
      'Due',
      'Effort',
      'Cost',
      'Assignee',
      'Reporter email',
    ]);
    const items = await Promise.all(columns.map(item));
    assert.deepEqual(
      items.map((treeItem) => treeItem.description),
      [
        'Auto Number · f30',
        'Text Field · f31',
        'Number · f32',
        'LookUp · f33',
        'Choice · f34',
        'Choice · f35',
        'Date & Time · f36',
        'Date · f37',
        'Duration · f38',
        'Currency · f39',
        'User · f40',
        'Email · f41',
      ],
    );
    assert.deepEqual(items.map(iconId), [
      'symbol-constant',
      'symbol-text',
      'symbol-number',
      'references',
      'list-selection',
      'list-selection',
      'clock',
      'calendar',
      'watch',
      'credit-card',
      'person',
      'mail',
    ]);
    assert.ok(items.every((treeItem) => treeItem.contextValue === 'portal.column'));
    const priority = tooltipText(items[4]);
    for (const expected of ['Priority', 'f34', 'Star Rating', 'Critical', 'Normal', '— default', 'color:#'])
      assert.ok(priority.includes(expected), `the Priority tooltip shows ${expected}: ${priority}`);
    assert.ok(tooltipText(items[1]).includes('**Required**'), tooltipText(items[1]));
    assert.ok(tooltipText(items[0]).includes('**Unique**'), tooltipText(items[0]));
    assert.ok(tooltipText(items[9]).includes('Currency symbol: $'), tooltipText(items[9]));

    // Expanding everything again asks the portal nothing.
    const before = (await treeRequestsSince(seq, ['101', '102', '201', '202'])).length;
    await children(await child(await child(await child(await path(portalId), 'Support'), 'Tickets'), 'Columns'));
    await children(await child(await path(portalId), 'Operations'));
    assert.equal((await treeRequestsSince(seq, ['101', '102', '201', '202'])).length, before);
  });

  it('adds a view by id, pages its 100,000 records 100 at a time, and reads it once', async () => {
    const group = await path(portalId, 'Support', 'Tickets', 'Views');
    const hint = await children(group);
    assert.equal((await item(hint[0])).contextValue, 'portal.message.hint', 'an app without views says how to add one');

    const seq = await lastRequestSeq();
    const view = await addView('Support', 'Tickets', '6', 'All tickets');
    assert.deepEqual((await testApi()).views.list(portalId, '201'), [{ viewId: '6', name: 'All tickets' }]);
    assert.equal((await item(view)).contextValue, 'portal.view');
    assert.ok(String((await item(view)).description).includes('100,000 records'), String((await item(view)).description));

    const firstPage = await children(view);
    assert.deepEqual(
      firstPage.map((node) => node.kind),
      ['findRecord', ...new Array<string>(100).fill('record'), 'loadMore'],
      '"Find a record…", 100 records and "Load more…"',
    );
    const find = await item(firstPage[0]);
    assert.equal(labelOf(find), 'Find a record…');
    assert.equal(find.command?.command, 'portal.goToRecord');
    assert.deepEqual(find.command?.arguments, [{ portalId, appId: '201', viewId: '6', viewName: 'All tickets' }]);
    const more = firstPage[101];
    const moreItem = await item(more);
    assert.equal(labelOf(moreItem), 'Load more…');
    assert.equal(moreItem.description, '100 of 100,000 records shown');
    assert.equal(moreItem.command?.command, 'portal.loadMore');

    const first = await item(firstPage[1]);
    assert.equal(labelOf(first), (await record('201', '1')).data.f31, 'records are titled by the first text column (Subject)');
    assert.equal(first.description, '#1');
    assert.equal(first.contextValue, 'portal.record');
    assert.equal(first.command?.command, 'portal.openRecord');
    // The names make the record's tab say which record it is (the address parses by ids).
    assert.deepEqual(first.command?.arguments, [
      { portalId, appId: '201', recordId: '1', title: 'VPN does not start for the sales team', appName: 'Tickets' },
    ]);
    assert.equal(first.resourceUri?.authority, portalId);
    assert.equal(first.resourceUri?.path, '/201 Tickets/VPN does not start for the sales team · 1.json');

    await vscode.commands.executeCommand('portal.loadMore', more);
    const secondPage = await waitFor(async () => {
      const shown = await children(view);
      return shown.length > 102 ? shown : undefined;
    });
    assert.equal(secondPage.length, 202);
    assert.equal((await item(secondPage[200])).description, '#200');
    assert.equal((await item(secondPage[201])).description, '200 of 100,000 records shown');
    assert.deepEqual(secondPage.slice(0, 101), firstPage.slice(0, 101), 'the first page keeps its items');

    const reads = (await treeRequestsSince(seq, ['201'])).filter((request) => request.path === '/api/v1/app/201/view/6');
    assert.equal(reads.length, 1, 'checking the view, expanding it and loading more read it once');
  });

  it('opens a record as a document when it is clicked', async () => {
    const view = await addView('Operations', 'Customers', '2', 'Gold customers');
    const [first] = await children(view);
    const command = (await item(first)).command;
    assert.equal(command?.command, 'portal.openRecord');
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.scheme === 'portal' && vscode.window.activeTextEditor, {
      message: 'the record to open',
    });
    const recordId = String((await item(first)).description).replace('#', '');
    // The tab names the record by its title, or keeps the address of the document open already (an
    // earlier test may have opened it by ids); either is read by its ids (app 101, the record id last).
    assert.equal(editor.document.uri.authority, portalId);
    assert.match(editor.document.uri.path, new RegExp(`^/101( Customers)?/(.* · )?${recordId}\\.json$`));
    const text = JSON.parse(editor.document.getText()) as Record<string, string>;
    assert.equal(text.f2, labelOf(await item(first)), 'the document holds the record the item is titled by');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('marks drafts and learns Draft mode from them', async () => {
    const view = await addView('Operations', 'Orders', '3', '');
    const records = await children(view);
    assert.equal(records.length, 8, 'Orders has 8 records: no "Load more…"');
    const drafts = [];
    for (const node of records) {
      const treeItem = await item(node);
      if (treeItem.contextValue === 'portal.record.draft') drafts.push(treeItem.description);
      else assert.equal(treeItem.contextValue, 'portal.record');
    }
    assert.deepEqual(drafts, ['#7 · Draft', '#8 · Draft']);
    assert.equal(labelOf(await item(view)), 'View 3', 'no name given: the default name');
    assert.equal((await (await testApi()).catalog.app(portalId, '102'))?.draftMode, true);
  });

  it('offers a refused view id again, and removes a view', async () => {
    const group = await path(portalId, 'Support', 'Tickets', 'Views');
    user()
      .answerInputBox('99', /id of a view/i)
      .answerMessage('Edit View Id', /view 99/i)
      .answerInputBox('7', /id of a view/i)
      .answerInputBox('Open tickets', /name/i);
    await vscode.commands.executeCommand('portal.addView', group);
    const refused = user().messagesOf('error');
    assert.equal(refused.length, 1);
    assert.match(refused[0], /HTTP 404/);
    assert.deepEqual(await labels(await children(group)), ['Open tickets']);

    const open = await child(group, 'Open tickets');
    await vscode.commands.executeCommand('portal.removeView', open);
    assert.deepEqual((await testApi()).views.list(portalId, '201'), []);
    const after = await children(group);
    assert.equal((await item(after[0])).contextValue, 'portal.message.hint');
  });

  it('refreshes a node and the whole tree, asking again only then', async () => {
    const view = await addView('Support', 'Knowledge base', '9', 'All articles');
    await children(view);
    await children(await path(portalId, 'Support', 'Knowledge base', 'Columns'));
    const seq = await lastRequestSeq();
    await children(view);
    assert.equal((await treeRequestsSince(seq, ['202'])).length, 0);

    await vscode.commands.executeCommand('portal.refreshNode', view);
    await children(view);
    assert.deepEqual(
      (await treeRequestsSince(seq, ['202'])).map((request) => request.path),
      ['/api/v1/app/202/view/9'],
    );

    await vscode.commands.executeCommand('portal.refresh');
    await children(await path(portalId, 'Support', 'Knowledge base', 'Columns'));
    await children(await path(portalId, 'Support', 'Knowledge base', 'Views', 'All articles'));
    const paths = (await treeRequestsSince(seq, ['202'])).map((request) => request.path);
    assert.deepEqual(paths.slice(1).sort(), ['/api/v1/app/202/columns', '/api/v1/app/202/view/9', '/api/v1/site']);
  });

  it("shows the portal's message with Retry when a load fails", async () => {
    await emulatorControl('POST', 'faults', { path: '^/api/v1/site$', status: 500, count: 1 });
    const portal = await path(portalId);
    const [failed] = await children(portal);
    const failedItem = await item(failed);
    assert.equal(failedItem.contextValue, 'portal.message.error');
    // A short label that a normal sidebar shows whole, beside Retry; the whole message on hover.
    assert.equal(labelOf(failedItem), 'Failed to load (HTTP 500)');
    assert.equal(failedItem.description, 'Retry');
    const tooltip = typeof failedItem.tooltip === 'string' ? failedItem.tooltip : (failedItem.tooltip?.value ?? '');
    assert.match(tooltip, /HTTP 500.*Injected fault: status 500\./);
    assert.match(tooltip, /retry/i);
    assert.equal(failedItem.command?.command, 'portal.retry');
    assert.match(failedItem.command?.tooltip ?? '', /Injected fault: status 500\./, 'Retry says what failed');

    // The failure was not kept: Retry asks again and the sites come.
    await vscode.commands.executeCommand('portal.retry', failed);
    assert.deepEqual(await labels(await children(portal)), ['Operations', 'Support']);

    await emulatorControl('POST', 'faults', { path: '^/api/v1/app/201/columns$', status: 500, count: 1 });
    const columns = await path(portalId, 'Support', 'Tickets', 'Columns');
    const [columnsFailed] = await children(columns);
    assert.equal((await item(columnsFailed)).contextValue, 'portal.message.error');
    await vscode.commands.executeCommand('portal.retry', columnsFailed);
    assert.equal((await children(columns)).length, 12);
  });

  it('shows "Sign in…" under a portal that is signed out', async () => {
    const api = await testApi();
    await api.portals.signOut(portalId);
    const portal = await path(portalId);
    assert.equal((await item(portal)).contextValue, 'portal.portal.signedOut');
    const [signIn] = await children(portal);
    const signInItem = await item(signIn);
    assert.equal(labelOf(signInItem), 'Sign in…');
    assert.equal(signInItem.contextValue, 'portal.message.signIn');
    assert.deepEqual([signInItem.command?.command, signInItem.command?.arguments], ['portal.signIn', [portalId]]);

    await vscode.commands.executeCommand('portal.signIn', portalId);
    await user().waitForMessage(/Signed in/);
    assert.deepEqual(await labels(await children(portal)), ['Operations', 'Support']);
  });

  it('shows "Sign in…" under a portal whose session expired', async () => {
    const api = await testApi();
    await removeAllPortals();
    // The authorization code flow (its browser step through a loopback listener): when the portal refuses
    // the refresh, only the user can sign in again.
    const auth = vscode.workspace.getConfiguration('portal.auth');
    await auth.update('redirectMode', 'loopback', vscode.ConfigurationTarget.Global);
    try {
      portalId = await connectEmulator({ flow: 'authorizationCode' });
    } finally {
      await auth.update('redirectMode', undefined, vscode.ConfigurationTarget.Global);
    }
    const portal = await portalNode(portalId);
    assert.deepEqual(await labels(await children(portal)), ['Operations', 'Support']);

    await emulatorControl('POST', 'tokens/expire', { refresh_tokens: true });
    await vscode.commands.executeCommand('portal.refreshNode', portal);
    const [failed] = await children(portal);
    assert.equal(labelOf(await item(failed)), 'Sign in…', 'the refused refresh turns the load into a sign-in');
    assert.match(String((await item(failed)).tooltip), /has expired/);
    await waitFor(() => api.portals.state(portalId) === 'expired', { message: 'the portal to be marked expired' });
    assert.equal((await item(portal)).contextValue, 'portal.portal.expired');
    assert.match(String((await item(portal)).description), /sign-in expired/);
    const [signIn] = await children(portal);
    assert.deepEqual([labelOf(await item(signIn)), (await item(signIn)).description], ['Sign in…', 'The session expired']);

    // The item's own command signs in again (the browser step approved as the user would).
    await auth.update('redirectMode', 'loopback', vscode.ConfigurationTarget.Global);
    try {
      user().onOpenExternal(async (target) => (await approvePortalSignIn(target), true));
      const command = (await item(signIn)).command;
      await vscode.commands.executeCommand(command?.command ?? '', ...(command?.arguments ?? []));
    } finally {
      await auth.update('redirectMode', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor(() => api.portals.state(portalId) === 'signedIn', { message: 'the sign-in' });
    assert.deepEqual(await labels(await children(portal)), ['Operations', 'Support']);
    await removeAllPortals();
  });

  it('copies a field id and titles records by the chosen field', async () => {
    const priority = await path(portalId, 'Support', 'Tickets', 'Columns', 'Priority');
    await vscode.commands.executeCommand('portal.copyFieldId', priority);
    assert.deepEqual(user().clipboard, ['f34']);

    const view = await addView('Support', 'Tickets', '7', 'Open tickets');
    const before = await records(view);
    const firstId = String((await item(before[0])).description).replace('#', '');
    const seq = await lastRequestSeq();
    const app = await path(portalId, 'Support', 'Tickets');
    user().answerQuickPick('Priority', /Title Field/);
    await vscode.commands.executeCommand('portal.setTitleField', app);
    const priorities = new Map([
      ['1', 'Low'],
      ['2', 'Normal'],
      ['3', 'High'],
      ['4', 'Critical'],
    ]);
    const expected = priorities.get((await record('201', firstId)).data.f34);
    const relabelled = await waitFor(
      async () => {
        const label = labelOf(await item((await records(view))[0]));
        return label === expected ? label : undefined;
      },
      { message: `the first record to be titled ${expected}` },
    );
    assert.equal(relabelled, expected);
    assert.equal(
      (await treeRequestsSince(seq, ['201'])).filter((request) => request.path.includes('/view/')).length,
      0,
      'titles change without reading the view again',
    );

    user().answerQuickPick('Default: the first text column', /Title Field/);
    await vscode.commands.executeCommand('portal.setTitleField', app);
    assert.equal((await testApi()).titles.get({ portalId, appId: '201' }), undefined);
  });

  it("reads a view again when one of its app's records changes", async () => {
    const view = await addView('Operations', 'Customers', '1', 'All customers');
    const [first] = await children(view);
    const api = await testApi();
    await api.portals.client(portalId).updateRecord('101', '1', { f2: 'Renamed by a test' });
    const seq = await lastRequestSeq();
    // As a record document's own save announces it: the document has its copy, so only the tree reads.
    api.recordEvents.fire({ portalId, appId: '101', recordId: '1', kind: 'updated', origin: 'local', source: 'documents' });
    await waitFor(async () => labelOf(await item((await children(view))[0])) === 'Renamed by a test', {
      message: 'the record to show its new name',
    });
    assert.equal(first.id, (await children(view))[0].id, 'the record keeps its place and id');
    assert.deepEqual(
      (await treeRequestsSince(seq, ['101'])).map((request) => request.path),
      ['/api/v1/app/101/view/1'],
    );
  });

  it('asks with pickers when run from the command palette', async () => {
    const api = await testApi();
    /** "Which portal?" is asked only when other suites left more portals connected. */
    const choosePortal = () => {
      if (api.portals.list().length > 1) user().answerQuickPick(isPortalItem(portalId), /Which portal/);
    };
    choosePortal();
    user()
      .answerQuickPick('Knowledge base', /Which app/)
      .answerInputBox('10', /id of a view/i)
      .answerInputBox('Reviewed', /name/i);
    await vscode.commands.executeCommand('portal.addView');
    assert.deepEqual(api.views.list(portalId, '202'), [{ viewId: '10', name: 'Reviewed' }]);

    choosePortal();
    user()
      .answerQuickPick('Knowledge base', /Which app/)
      .answerQuickPick('Reviewed', /Which view/);
    await vscode.commands.executeCommand('portal.removeView');
    assert.deepEqual(api.views.list(portalId, '202'), []);

    choosePortal();
    user()
      .answerQuickPick('Orders', /Which app/)
      .answerQuickPick('Amount', /Which column/);
    await vscode.commands.executeCommand('portal.copyFieldId');
    assert.deepEqual(user().clipboard, ['f17']);
  });
});
