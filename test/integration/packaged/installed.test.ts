// The .vsix as a user installs it: `npm run package`, then `code-server --install-extension`, no
// extension under development. These tests see only what a user's VS Code sees: the installed extension,
// its contributions and the workbench (the test API exists only in ExtensionMode.Test, which an installed
// extension is not in). The emulator is connected through PORTAL_EXPLORER_CONNECTION_FILE, as npm start does.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from '../support/driver';
import { EXTENSION_ID } from '../support/extension';
import { waitFor } from '../support/wait';

function installed(): vscode.Extension<{ testing?: unknown }> {
  const found = vscode.extensions.getExtension<{ testing?: unknown }>(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is installed`);
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe(`the installed .vsix ${BROWSER_TAG}`, function () {
  this.timeout(90_000);

  it('is the copy installed from the .vsix, not a development folder', () => {
    const extensionsDir = process.env.PORTAL_PACKAGED_EXTENSIONS_DIR;
    assert.ok(extensionsDir, 'the harness names the extensions folder');
    const path = realpathSync(installed().extensionPath);
    assert.ok(!relative(realpathSync(extensionsDir), path).startsWith('..'), `${path} is under ${extensionsDir}`);
    assert.match(path, /portal-labs\.portal-explorer-\d+\.\d+\.\d+/);
    const files = filesUnder(path)
      .map((file) => relative(path, file))
      .filter((file) => file !== '.vsixmanifest');
    assert.ok(files.includes(join('dist', 'extension.js')), 'the entry');
    assert.ok(files.includes(join('dist', 'esm', 'extension.mjs')), 'the ES modules it loads');
    assert.ok(files.includes(join('media', 'walkthrough', 'register.md')), 'the walkthrough');
    assert.ok(files.includes(join('media', 'portal.svg')), 'the activity bar icon');
    assert.deepEqual(
      files.filter((file) => /^(src|test|node_modules|out|webview-ui)\b|\.map$|\.ts$|screenshots/.test(file)),
      [],
      'no sources, tests, dependencies, source maps or screenshots',
    );
    assert.equal(existsSync(join(path, 'dist', 'extension.js.map')), false);
  });

  it('waits to be needed, then activates in production mode, with every command it contributes', async () => {
    const extension = installed();
    assert.equal(extension.isActive, false, 'not active before anything of it was used (no startup activation)');
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    await waitFor(() => extension.isActive, { message: 'the extension to activate when its view is shown' });
    assert.equal(extension.exports.testing, undefined, 'no test API outside ExtensionMode.Test');
    const contributed = (extension.packageJSON as { contributes: { commands: Array<{ command: string }> } }).contributes.commands.map(
      (entry) => entry.command,
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((command) => !registered.has(command)),
      [],
      'every contributed command is registered',
    );
  });

  // The first use of the record file system and of a command in this extension host: what they hand their
  // calls to is built then (src/features.ts), once the portals' sign-in state has been read.
  it('opens a record document as the first thing it is asked for', async () => {
    const uri = vscode.Uri.parse('portal://demo-portal/101/1.json');
    // The pre-configured portal is connected a moment after activation, the first time.
    const document = await waitFor(
      async () =>
        vscode.workspace.openTextDocument(uri).then(
          (opened) => opened,
          () => undefined,
        ),
      {
        message: 'the record document portal://demo-portal/101/1.json to open',
        timeoutMs: 30_000,
      },
    );
    const record = JSON.parse(document.getText()) as Record<string, unknown>;
    assert.equal(typeof record.$schema, 'string', 'the record names its schema');
    assert.ok(Object.keys(record).length > 2, `the record's fields are there: ${document.getText()}`);
  });

  it('runs a command that needs the portal client', async () => {
    const sites = await vscode.commands.executeCommand<number | undefined>('portal.checkConnection', 'demo-portal');
    assert.equal(sites, 2, 'the emulator has two sites');
  });

  it('shows the pre-configured portal in the Portal view, down to its apps', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.portal');
    const portal = await waitFor(async () => (await driver.treeItems('Explorer')).find((row) => row.label === 'Demo portal'), {
      message: 'the portal "Demo portal" in the Portal view',
      timeoutMs: 30_000,
    });
    assert.equal(portal.level, 1);
    await driver.click('.pane .monaco-list-row[aria-level="1"]:has-text("Demo portal")');
    await driver.press('ArrowRight');
    const site = await waitFor(
      async () => (await driver.treeItems('Explorer')).find((row) => row.level === 2 && row.label === 'Operations'),
      {
        message: 'the site "Operations" under the portal',
      },
    );
    assert.equal(site.level, 2);
    await driver.click('.pane .monaco-list-row[aria-level="2"]:has-text("Operations")');
    await driver.press('ArrowRight');
    await waitFor(async () => (await driver.treeItems('Explorer')).some((row) => row.level === 3 && row.label === 'Orders'), {
      message: 'the app "Orders" under the site',
    });
    await driver.screenshot('packaged-tree');
  });

  // The tools' code is a chunk of its own, loaded by the first call: this proves it ships and loads.
  it("answers the agent's tools from the installed package", async () => {
    const result = await vscode.lm.invokeTool('portal_readRecord', {
      input: { portal: 'demo-portal', app: 'Customers', record: '1' },
      toolInvocationToken: undefined,
    });
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /^Record 1 of Customers \(app 101\) on portal "Demo portal"\.$/m);
    assert.match(text, /^- f2 \(Name\): Acme Corporation$/m);
    assert.match(text, /^- f6 \(Tier\): Gold \(id 3\)$/m, 'choice names');
  });
});
