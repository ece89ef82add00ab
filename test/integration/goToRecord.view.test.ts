// "Go to Record…" as a user runs it: from the view's inline action in the Portal explorer (a real click),
// from Ctrl+F on a selected view or record, from "Find a record…" under the view, and from the Command
// Palette (its pickers answered with keys); typing in the real quick pick (real keys), Enter opens the
// record's document.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from './support/driver';
import { resetEmulator } from './support/emulator';
import { children, emulatorPortal, freshExplorer, path } from './support/explorer';
import { testApi } from './support/extension';
import { waitFor } from './support/wait';

/** A fresh Portal view showing the Tickets app's 100,000-row view "All tickets"; its node. */
async function allTicketsShown() {
  const portalId = await emulatorPortal();
  await freshExplorer(portalId);
  const api = await testApi();
  await api.views.add(portalId, '201', { viewId: '6', name: 'All tickets' });
  await vscode.commands.executeCommand('workbench.view.extension.portal');
  return { api, view: await path(portalId, 'Support', 'Tickets', 'Views', 'All tickets') };
}

describe(`Go to Record ${BROWSER_TAG}`, function () {
  this.timeout(90_000);
  beforeEach(resetEmulator);

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("finds a record among the view's 100,000 by words of its text, and opens it on Enter", async () => {
    const { api, view } = await allTicketsShown();
    await api.explorerView.reveal(view, { expand: false, select: true, focus: true });

    // The view's inline action, as the mouse finds it on the selected row.
    await driver.click('.monaco-list-row.selected .action-label[aria-label="Go to Record…"]');
    await waitFor(async () => (await driver.texts('.quick-input-title')).some((text) => text.includes('Go to Record in All tickets')), {
      message: 'the Go to Record pick',
    });
    await driver.type('4321');
    await waitFor(
      async () => {
        const labels = await driver.texts('.quick-input-list .monaco-list-row');
        return labels[0]?.includes('#4321') ? labels : undefined;
      },
      { message: 'record 4321 first in the list', timeoutMs: 30_000 },
    );
    await driver.screenshot('go-to-record-by-id');

    // Words of a text column, in any order: every match holds them.
    await driver.press('Control+A');
    await driver.type('laptop lyon');
    const matches = await waitFor(
      async () => {
        const labels = await driver.texts('.quick-input-list .monaco-list-row');
        return labels.length > 0 && labels.every((label) => /laptop/i.test(label) && /lyon/i.test(label)) ? labels : undefined;
      },
      { message: 'only laptops in Lyon' },
    );
    await driver.screenshot('go-to-record-by-words');
    const recordId = /#(\d+)/.exec(matches[0])?.[1];
    assert.ok(recordId, matches[0]);

    await driver.press('Enter');
    const editor = await waitFor(
      () => {
        const active = vscode.window.activeTextEditor;
        // Named for its tab by the record's title (/201/<title> · <id>.json), as from the Portal view.
        return active && new RegExp(`^/201/.+ · ${recordId}\\.json$`).test(active.document.uri.path) ? active : undefined;
      },
      { message: `record ${recordId} to open`, timeoutMs: 30_000 },
    );
    assert.match(editor.document.getText(), /"f31": ".*Laptop.*Lyon/i);
  });

  /** The quick pick shown, with the keyboard in it, once its title says `text` (a hidden one keeps its old title). */
  async function pickTitled(text: string, timeoutMs = 10_000): Promise<void> {
    const shownTitle = `(() => { const widget = document.querySelector('.quick-input-widget'); return widget && getComputedStyle(widget).display !== 'none' && widget.contains(document.activeElement) ? widget.querySelector('.quick-input-title')?.textContent ?? '' : ''; })()`;
    await waitFor(async () => (await driver.evaluate<string>(shownTitle)).includes(text), {
      message: `the quick pick "${text}", focused`,
      timeoutMs,
    });
  }

  /** The first row of the quick pick's list once it holds `pattern`. */
  async function firstRow(pattern: RegExp, timeoutMs = 30_000): Promise<string> {
    return waitFor(
      async () => {
        const labels = await driver.texts('.quick-input-list .monaco-list-row');
        return labels[0] && pattern.test(labels[0]) ? labels[0] : undefined;
      },
      { message: `the first row to match ${pattern}`, timeoutMs },
    );
  }

  /**
   * Ctrl+F in the Portal view until the pick shows: the key is bound while the selection is in a view, a
   * context key the extension sets when the selection changes, a moment after the tree shows it (sooner
   * than a person presses a key after selecting, not sooner than this driver does).
   */
  async function ctrlFInTree(title: string): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      await driver.press('Control+F');
      try {
        await pickTitled(title, 2_000);
        return;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
  }

  async function openedRecord(recordId: string): Promise<vscode.TextEditor> {
    return waitFor(
      () => {
        const active = vscode.window.activeTextEditor;
        // By ids (/201/<id>.json) or named for its tab (/201 Tickets/<title> · <id>.json): the same record.
        return active && new RegExp(`^/201( [^/]*)?/(.* · )?${recordId}\\.json$`).test(active.document.uri.path) ? active : undefined;
      },
      { message: `record ${recordId} to open`, timeoutMs: 30_000 },
    );
  }

  it('opens on Ctrl+F in the Portal view when a view or one of its records is selected, and from "Find a record…"', async () => {
    const { api, view } = await allTicketsShown();
    await api.explorerView.reveal(view, { expand: true, select: true, focus: true });
    await waitFor(() => driver.focusedWithin('.monaco-list'), { message: 'the keyboard focus in the Portal view' });

    await ctrlFInTree('Go to Record in All tickets');
    await driver.type('77');
    await firstRow(/#77\b/);
    await driver.screenshot('go-to-record-ctrl-f');
    await driver.press('Escape');

    // A record of the view selected (VS Code's arrow keys move the focus, not the selection): Ctrl+F
    // searches the record's view.
    const record = (await children(view)).find((node) => node.kind === 'record');
    assert.ok(record);
    await api.explorerView.reveal(record, { select: true, focus: true });
    await waitFor(() => driver.focusedWithin('.monaco-list'), { message: 'the keyboard focus back in the Portal view' });
    await ctrlFInTree('Go to Record in All tickets');
    await driver.screenshot('go-to-record-ctrl-f-on-a-record');
    await driver.press('Escape');

    // "Find a record…", the first line under the view: a click opens the same pick; Enter opens the record.
    // Clicked once the view is read: the "Loading…" line above it goes then, and the rows move up one.
    await waitFor(async () => !(await driver.treeItems('Explorer')).some((row) => row.label.startsWith('Loading…')), {
      message: 'the view read',
      timeoutMs: 30_000,
    });
    const find = (await children(view)).find((node) => node.kind === 'findRecord');
    assert.ok(find, 'the view offers "Find a record…"');
    await driver.click('.monaco-list-row:has-text("Find a record…")');
    await pickTitled('Go to Record in All tickets');
    await driver.type('4242');
    await firstRow(/#4242\b/);
    await driver.press('Enter');
    await openedRecord('4242');
  });

  it('runs from the Command Palette, asking for the app and the view with quick picks', async () => {
    const portalId = await emulatorPortal();
    await freshExplorer(portalId);
    const api = await testApi();
    await api.views.add(portalId, '201', { viewId: '6', name: 'All tickets' });
    await driver.press('F1');
    await waitFor(() => driver.focusedWithin('.quick-input-widget'), { message: 'the Command Palette' });
    await driver.type('Portal: Go to Record');
    await firstRow(/Portal: Go to Record…/, 10_000);
    await driver.press('Enter');
    // Other suites may have left more portals connected: then "Which portal?" comes first.
    const question = await waitFor(
      async () => {
        const placeholder = await driver.evaluate<string>(
          `document.querySelector('.quick-input-box input')?.getAttribute('placeholder') ?? ''`,
        );
        return /Which (portal|app)\?/.test(placeholder) ? placeholder : undefined;
      },
      { message: 'the palette to ask which portal or app' },
    );
    if (question.includes('portal')) {
      await driver.type(api.portals.get(portalId)?.label ?? portalId);
      await driver.press('Enter');
    }
    await waitFor(
      async () =>
        (await driver.evaluate<string>(`document.querySelector('.quick-input-box input')?.getAttribute('placeholder') ?? ''`)) ===
        'Which app?',
      { message: 'Which app?' },
    );
    await driver.type('Tickets');
    await firstRow(/Tickets/, 10_000);
    await driver.press('Enter');
    await waitFor(
      async () =>
        (await driver.evaluate<string>(`document.querySelector('.quick-input-box input')?.getAttribute('placeholder') ?? ''`)) ===
        'Which view?',
      { message: 'Which view?' },
    );
    await driver.type('All tickets');
    await firstRow(/All tickets/, 10_000);
    await driver.press('Enter');
    await pickTitled('Go to Record in All tickets');
    await driver.type('31337');
    await firstRow(/#31337\b/);
    await driver.screenshot('go-to-record-from-palette');
    await driver.press('Enter');
    await openedRecord('31337');
  });
});
