// The driver's capabilities, each shown on the real workbench: a screenshot file, real key presses that
// change a document, the rows of a tree, and the DOM of a webview panel.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { BROWSER_TAG, driver } from './support/driver';
import { waitFor, waitForEvent } from './support/wait';
import { workspaceFile } from './support/workspace';

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe(`the driver ${BROWSER_TAG}`, () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('saves a screenshot of the workbench as it is now', async () => {
    const path = await driver.screenshot('workbench');
    assert.ok(path, 'the driver returns the file it wrote');
    assert.match(path, /test-results\/screenshots\/\d+-workbench\.png$/);
    const { width, height } = pngSize(readFileSync(path));
    assert.ok(width >= 800 && height >= 600, `a whole workbench, not a fragment (${width}x${height})`);
  });

  it('types into the editor and saves with a real Ctrl+S', async () => {
    const uri = await workspaceFile('typed.txt', 'first line\n');
    const editor = await vscode.window.showTextDocument(uri);
    // Keys go where the focus is: wait until the editor has it, as a user would look before typing.
    await waitFor(() => driver.focusedWithin('.monaco-editor'), { message: 'the editor to have the keyboard focus' });
    await driver.press('Control+End');
    await waitFor(() => editor.selection.active.line === 1, { message: 'Ctrl+End to move the cursor to the last line' });
    await driver.type('typed by the driver');
    await waitFor(() => editor.document.getText().includes('typed by the driver'), { message: 'the typed text to reach the document' });
    assert.equal(editor.document.isDirty, true);

    await driver.press('Control+S');
    await waitFor(() => !editor.document.isDirty, { message: 'Ctrl+S to save the document' });
    const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    assert.equal(onDisk, 'first line\ntyped by the driver');
  });

  it('reads the rows of a tree as the workbench shows them', async () => {
    await workspaceFile('tree-a.txt', 'a');
    await workspaceFile('tree-b.txt', 'b');
    await vscode.commands.executeCommand('workbench.view.explorer');
    const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
    const labels = await waitFor(
      async () => {
        const rows = (await driver.treeItems(folder)).map((row) => row.label);
        return rows.includes('tree-a.txt') && rows.includes('tree-b.txt') ? rows : undefined;
      },
      { message: 'the Explorer to list tree-a.txt and tree-b.txt' },
    );
    assert.ok(labels.indexOf('tree-a.txt') < labels.indexOf('tree-b.txt'), `rows in the order shown: ${labels.join(', ')}`);
  });

  it('reaches the DOM of a webview panel: reads, fills, clicks', async () => {
    // A panel made by the test itself: the extension has none yet; the driver does not care whose it is.
    const panel = vscode.window.createWebviewPanel('portalTest.driver', 'Driver test panel', vscode.ViewColumn.One, {
      enableScripts: true,
    });
    try {
      panel.webview.html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Driver test panel</title></head><body>
        <h1 id="greeting">Hello from the panel</h1>
        <input id="name" aria-label="Name"><button id="send">Send</button>
        <ul id="items"><li>one</li><li>two</li></ul>
        <script>
          const vscode = acquireVsCodeApi();
          document.getElementById('send').addEventListener('click', () => {
            vscode.postMessage({ name: document.getElementById('name').value });
            document.getElementById('greeting').textContent = 'Sent';
          });
        </script></body></html>`;
      const dom = driver.webview('Driver test panel');
      assert.equal(await dom.text('#greeting'), 'Hello from the panel');
      assert.deepEqual(await dom.texts('#items li'), ['one', 'two']);

      const received = waitForEvent(panel.webview.onDidReceiveMessage, () => true, { message: 'the panel to post its message' });
      await dom.fill('#name', 'Ada');
      await dom.click('#send');
      assert.deepEqual(await received, { name: 'Ada' });
      await waitFor(async () => (await dom.text('#greeting')) === 'Sent', { message: 'the panel to update itself' });
      assert.equal(await dom.evaluate<string>('document.getElementById("name").value'), 'Ada');
      await driver.screenshot('webview-panel');
    } finally {
      panel.dispose();
    }
  });

  it('says which webviews exist when asked for one that does not', async () => {
    await assert.rejects(driver.webview('No such panel').text('body', { timeoutMs: 500 }), /No visible webview titled "No such panel"/);
  });
});
