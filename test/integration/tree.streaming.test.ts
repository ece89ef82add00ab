// A large view in the Portal explorer while its rows arrive (issue 19): the first page shows as soon as the
// first rows are read, with "Loading… N rows" (click: Cancel) after it; the count when the read ends; an
// answer that breaks off keeps the rows read, marked partial, with Retry. The emulator sends the view
// slowly (its bytesPerSecond knob) or breaks it off (a drop_after_bytes fault); the request log shows how
// many times the view was read.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExplorerNode } from '../../src/tree/nodes';
import { BROWSER_TAG, driver } from './support/driver';
import { emulatorControl, resetEmulator } from './support/emulator';
import { children, emulatorPortal, freshExplorer, item, labelOf, lastRequestSeq, path } from './support/explorer';
import { testApi } from './support/extension';
import { requestLogSince } from './support/roundTrips';
import { waitFor } from './support/wait';

const ROWS = 6_000;
const VIEW_PATH = '/api/v1/app/201/view/6';

const kinds = (nodes: readonly ExplorerNode[]): string[] => [...new Set(nodes.map((node) => node.kind))];

async function viewDescription(view: ExplorerNode): Promise<string> {
  return String((await item(view)).description ?? '');
}

/** The view's reads the emulator answered or is answering since `mark`. */
async function viewReads(mark: number): Promise<number> {
  return (await requestLogSince(mark)).filter((request) => request.method === 'GET' && request.path === VIEW_PATH).length;
}

describe(`a large view in the Portal explorer while its rows arrive ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  let portalId = '';

  beforeEach(async () => {
    await resetEmulator();
    await emulatorControl('POST', 'config', { bigViewRecords: ROWS });
    portalId = await emulatorPortal();
    await freshExplorer(portalId);
    await (await testApi()).views.add(portalId, '201', { viewId: '6', name: 'All tickets' });
  });

  afterEach(async () => {
    // The view leaves the tree before its rows are dropped: an expanded view whose rows are dropped is read
    // again, and that read would run into the next test.
    const api = await testApi();
    await api.views.remove(portalId, '201', '6');
    api.rows.drop(portalId);
    await resetEmulator();
  });

  it('shows the first records while the rest is still coming, then the count; the view is read once', async () => {
    // ~1.6 MB at 250 KB/s: about 6 s for the whole answer.
    await emulatorControl('POST', 'config', { bytesPerSecond: 250_000 });
    const view = await path(portalId, 'Support', 'Tickets', 'Views', 'All tickets');
    const mark = await lastRequestSeq();
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    await (await testApi()).explorerView.reveal(view, { expand: true, select: true, focus: true });

    const early = await children(view);
    assert.deepEqual(kinds(early), ['loading', 'findRecord', 'record', 'loadMore'], '"Loading…" above the first page');
    assert.equal(early.filter((node) => node.kind === 'record').length, 100);
    const loading = early[0];
    assert.ok(loading?.kind === 'loading');
    assert.match(labelOf(await item(loading)), /^Loading… [\d,]+ rows$/);
    assert.equal((await item(loading)).description, 'Cancel');
    assert.ok(loading.count < ROWS, `${loading.count} rows read when the first page showed`);
    assert.match(await viewDescription(view), /^view 6 · loading…$/);
    assert.equal(
      (await requestLogSince(mark)).filter((request) => request.path === VIEW_PATH).length,
      0,
      'the answer is still coming (the log has it once it ends)',
    );
    const shown = await waitFor(
      async () => {
        const rows = await driver.treeItems('Explorer');
        return rows.some((row) => /^Loading… [\d,]+ rows$/.test(row.label)) && rows.some((row) => row.description === '#1')
          ? rows
          : undefined;
      },
      { message: 'the tree to draw the first records and "Loading…"' },
    );
    assert.ok(shown.some((row) => row.label === 'Find a record…'));
    await driver.screenshot('tree-view-loading');

    // The count grows while rows arrive, then the view says how many it holds.
    await waitFor(async () => (await viewDescription(view)) === `view 6 · ${ROWS.toLocaleString('en-US')} records`, {
      message: 'the count once every row is in',
      timeoutMs: 30_000,
    });
    const done = await children(view);
    assert.deepEqual(kinds(done), ['findRecord', 'record', 'loadMore']);
    assert.equal(labelOf(await item(done.at(-1) as ExplorerNode)), 'Load more…');
    assert.equal((await item(done.at(-1) as ExplorerNode)).description, `100 of ${ROWS.toLocaleString('en-US')} records shown`);
    await waitFor(async () => (await driver.treeItems('Explorer')).every((row) => !row.label.startsWith('Loading…')), {
      message: '"Loading…" to leave the tree',
    });
    await driver.screenshot('tree-view-loaded');
    assert.equal(await viewReads(mark), 1, 'one GET of the view');
  });

  it('stops loading when "Loading…" is clicked, keeps the rows read, and reads the view again on Retry', async () => {
    await emulatorControl('POST', 'config', { bytesPerSecond: 100_000 });
    const view = await path(portalId, 'Support', 'Tickets', 'Views', 'All tickets');
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    await (await testApi()).explorerView.reveal(view, { expand: true, select: true, focus: true });
    await waitFor(async () => (await driver.treeItems('Explorer')).some((row) => row.label.startsWith('Loading…')), {
      message: '"Loading…" in the tree',
    });

    // By its label, case and all: the view's own row says "loading…" in its description.
    await driver.click('.monaco-list-row .label-name >> text=/^Loading… [0-9,]+ rows$/');
    const partial = await waitFor(async () => (await children(view)).find((node) => node.kind === 'message'), {
      message: 'the view to stop loading',
    });
    const partialItem = await item(partial);
    const kept = Number(/cancelled after ([\d,]+) rows/.exec(labelOf(partialItem))?.[1].replace(/,/g, ''));
    assert.ok(kept > 0 && kept < ROWS, labelOf(partialItem));
    assert.equal(partialItem.description, 'Retry');
    assert.equal(partialItem.contextValue, 'portal.message.partial');
    assert.equal(await viewDescription(view), `view 6 · ${kept.toLocaleString('en-US')} records (partial)`);
    assert.equal((await children(view)).filter((node) => node.kind === 'record').length, 100, 'the rows read stay');
    await waitFor(async () => (await driver.treeItems('Explorer')).some((row) => row.label.startsWith('Partial: cancelled after')), {
      message: 'the partial line in the tree',
    });
    await driver.screenshot('tree-view-cancelled');

    await emulatorControl('POST', 'config', { bytesPerSecond: 0 });
    const retried = await lastRequestSeq();
    await driver.click('.monaco-list-row .label-name >> text=/^Partial: cancelled after/');
    await waitFor(async () => (await viewDescription(view)) === `view 6 · ${ROWS.toLocaleString('en-US')} records`, {
      message: 'the view read again in full',
      timeoutMs: 30_000,
    });
    assert.equal(await viewReads(retried), 1, 'Retry reads the view again, once');
  });

  it('keeps the rows read when the answer breaks off, says how many, and reads again on Retry', async () => {
    await emulatorControl('POST', 'faults', { path: VIEW_PATH, count: 1, drop_after_bytes: 400_000 });
    const view = await path(portalId, 'Support', 'Tickets', 'Views', 'All tickets');
    const mark = await lastRequestSeq();
    const broken = await waitFor(
      async () => {
        const nodes = await children(view);
        return nodes[0]?.kind === 'message' ? nodes : undefined;
      },
      { message: 'the read to break off' },
    );
    const message = broken[0];
    const messageItem = await item(message);
    const text = labelOf(messageItem);
    const read = Number(
      /^Partial: only ([\d,]+) rows were read \(Reading view 6 of app 201 failed: .*connection/.exec(text)?.[1].replace(/,/g, ''),
    );
    assert.ok(read > 1_000 && read < ROWS, text);
    assert.equal(messageItem.description, 'Retry');
    assert.equal(messageItem.command?.command, 'portal.retry');
    assert.equal(broken.filter((node) => node.kind === 'record').length, 100, 'the rows read are shown');
    assert.equal(await viewDescription(view), `view 6 · ${read.toLocaleString('en-US')} records (partial)`);

    await vscode.commands.executeCommand('workbench.view.extension.portal');
    await (await testApi()).explorerView.reveal(view, { expand: true, select: true, focus: true });
    await waitFor(async () => (await driver.treeItems('Explorer')).some((row) => row.label.startsWith('Partial: only')), {
      message: 'the partial line in the tree',
    });
    await driver.screenshot('tree-view-partial');
    await driver.click('.monaco-list-row .label-name >> text=/^Partial: only/');
    await waitFor(async () => (await viewDescription(view)) === `view 6 · ${ROWS.toLocaleString('en-US')} records`, {
      message: 'the view read again in full',
      timeoutMs: 30_000,
    });
    assert.ok((await children(view)).every((node) => node.kind !== 'message'));
    assert.equal(await viewReads(mark), 2);
  });
});
