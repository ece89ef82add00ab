// References to records in any file (issue 33): each app's pattern, from the setting or the workspace
// file, of several apps at once, makes a link to the record's document; portal:// addresses and the
// extension's links are links too. Scanning asks the portal nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedPortal } from './documents/support';
import { BROWSER_TAG, driver } from './support/driver';
import { emulatorRecord, requestMark, requestsSince } from './support/documents';
import { emulator } from './support/emulator';
import { testApi } from './support/extension';
import { waitFor } from './support/wait';
import { workspaceFile } from './support/workspace';

const SETTING = 'portal.references';

async function linksOf(document: vscode.TextDocument, count: number): Promise<vscode.DocumentLink[]> {
  return waitFor(
    async () => {
      const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', document.uri);
      return links.length >= count ? links : undefined;
    },
    { message: `${count} links in the document` },
  );
}

function described(document: vscode.TextDocument, links: readonly vscode.DocumentLink[]): string[] {
  return (
    links
      .filter((link) => link.target?.scheme !== 'http' && link.target?.scheme !== 'https')
      .sort((a, b) => document.offsetAt(a.range.start) - document.offsetAt(b.range.start))
      .map((link) => `${document.getText(link.range)} -> ${link.target?.toString(true)}`)
      // VS Code's own link detection finds some addresses too.
      .filter((line, index, lines) => lines.indexOf(line) === index)
  );
}

describe('references to records in files', function () {
  this.timeout(60_000);
  const connected = useConnectedPortal();

  afterEach(async () => {
    await vscode.workspace.getConfiguration().update(SETTING, undefined, vscode.ConfigurationTarget.Global);
  });

  it("links each app's references, portal addresses and extension links, asking the portal nothing", async () => {
    const portalId = connected();
    await testApi();
    const base = emulator().base_url.replace(/\/+$/, '');
    await vscode.workspace
      .getConfiguration()
      .update(SETTING, { [base]: { '201': 'TCK-{id}', '102': '#{id}' } }, vscode.ConfigurationTarget.Global);
    const mark = await requestMark();
    const document = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: [
        'Fixes TCK-12 and #5 (not XTCK-3, not TCK-4a).',
        `See portal://${portalId}/201/7.json, and portal://${portalId}/201/views/Open%20tickets%20%C2%B7%207.`,
        `Link: vscode://portal-labs.portal-explorer/open?portal=${encodeURIComponent(base)}&app=201&record=9.`,
      ].join('\n'),
    });
    await vscode.window.showTextDocument(document);
    const links = await linksOf(document, 5);
    const lines = described(document, links);
    assert.deepEqual(lines.slice(0, 4), [
      `TCK-12 -> portal://${portalId}/201/12.json`,
      `#5 -> portal://${portalId}/102/5.json`,
      `portal://${portalId}/201/7.json -> portal://${portalId}/201/7.json`,
      `portal://${portalId}/201/views/Open%20tickets%20%C2%B7%207 -> portal://${portalId}/201/views/Open tickets · 7`,
    ]);
    assert.match(
      lines[4],
      new RegExp(
        `^vscode://portal-labs\\.portal-explorer/open\\?portal=.*record=9 -> ${vscode.env.uriScheme}://portal-labs\\.portal-explorer/open\\?`,
      ),
    );
    assert.equal(lines.length, 5, lines.join('\n'));
    assert.deepEqual(await requestsSince(mark), [], 'links are found without a request');

    // Ctrl+click: the reference's link opens the record's document.
    await vscode.commands.executeCommand('vscode.open', links.find((link) => document.getText(link.range) === 'TCK-12')?.target);
    const opened = await waitFor(
      () => (vscode.window.activeTextEditor?.document.uri.scheme === 'portal' ? vscode.window.activeTextEditor : undefined),
      {
        message: "the record's editor",
      },
    );
    assert.match(opened.document.getText(), /"f31"/);
  });

  it("takes an app's reference from the workspace file, before the setting", async () => {
    const portalId = connected();
    const api = await testApi();
    const base = emulator().base_url.replace(/\/+$/, '');
    await vscode.workspace.getConfiguration().update(SETTING, { [base]: { '201': 'T-{id}' } }, vscode.ConfigurationTarget.Global);
    const file = await workspaceFile(
      '.vscode/portal.json',
      JSON.stringify({
        portals: [{ name: 'Team', baseUrl: base, clientId: emulator().client_id, apps: [{ id: '201', reference: 'SUP-{id}' }] }],
      }),
    );
    try {
      await waitFor(() => api.workspace.apps().some((entry) => entry.app.reference === 'SUP-{id}'), { message: 'the file read' });
      const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'SUP-3 and T-4' });
      const links = await linksOf(document, 1);
      assert.deepEqual(described(document, links), [`SUP-3 -> portal://${portalId}/201/3.json`]);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });

  it(`links a reference already on screen once its app's pattern is set ${BROWSER_TAG}`, async () => {
    const portalId = connected();
    await testApi();
    const base = emulator().base_url.replace(/\/+$/, '');
    // An editor showing a reference before any app has a pattern: only the address is a link.
    const document = await vscode.workspace.openTextDocument({
      language: 'plaintext',
      content: `Fixes TCK-31 (portal://${portalId}/201/31.json).`,
    });
    await vscode.window.showTextDocument(document);
    const shownLinks = async (): Promise<string[]> => driver.texts('.part.editor .view-lines .view-line span.detected-link');
    await waitFor(async () => (await shownLinks()).some((text) => text.startsWith('portal://')), {
      message: 'the editor to show the address as a link',
    });
    assert.ok(!(await shownLinks()).includes('TCK-31'), 'no pattern yet: TCK-31 is no link');

    // The pattern arrives (the setting here; a team file pulled into the workspace alike): the editor's
    // links are found again, without the user typing.
    await vscode.workspace.getConfiguration().update(SETTING, { [base]: { '201': 'TCK-{id}' } }, vscode.ConfigurationTarget.Global);
    await waitFor(async () => (await shownLinks()).includes('TCK-31'), {
      message: 'the editor to show TCK-31 as a link once the pattern is set',
      timeoutMs: 15_000,
    });
  });

  async function hoverText(document: vscode.TextDocument, offset: number): Promise<string> {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      document.positionAt(offset),
    );
    return hovers
      .flatMap((hover) => hover.contents)
      .map((content) => (typeof content === 'string' ? content : content.value))
      .join('\n');
  }

  it("hovers a reference with the record's title, choices in colour, users and actions, from one read; a missing one says so", async () => {
    const portalId = connected();
    await testApi();
    const base = emulator().base_url.replace(/\/+$/, '');
    await vscode.workspace.getConfiguration().update(SETTING, { [base]: { '201': 'TCK-{id}' } }, vscode.ConfigurationTarget.Global);
    const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'Fixes TCK-12; see TCK-99999999.' });
    await vscode.window.showTextDocument(document);
    await linksOf(document, 2);
    const record = await emulatorRecord('201', '12');
    const mark = await requestMark();
    const text = await hoverText(document, document.getText().indexOf('TCK-12') + 2);
    const reads = (await requestsSince(mark)).filter((line) => line.startsWith('GET /api/v1/app/201/record/12 '));
    assert.equal(reads.length, 1, `one read of the record: ${(await requestsSince(mark)).join('; ')}`);
    assert.match(text, /\*\*TCK\\-12\*\*/);
    const subject = String(record.data.f31 ?? '');
    const word = /[A-Za-z]{3,}/.exec(subject)?.[0] ?? '';
    assert.ok(word !== '' && text.includes(word), `the title "${subject}" in ${text}`);
    assert.match(text, /<span style="color:#[0-9A-Fa-f]{6};">■<\/span>/, 'a choice in its colour');
    for (const command of ['portal.openRecord', 'portal.copyLink', 'portal.openInPortal', 'portal.startWork'])
      assert.ok(text.includes(`command:${command}?`), `${command} in ${text}`);
    assert.ok(
      text.includes(encodeURIComponent(JSON.stringify([{ portalId, appId: '201', recordId: '12' }]))),
      'the actions are on the record',
    );

    const again = await requestMark();
    await hoverText(document, document.getText().indexOf('TCK-12') + 1);
    assert.deepEqual(
      (await requestsSince(again)).filter((line) => line.includes('/record/')),
      [],
      'hovering again soon asks the portal nothing',
    );

    const missing = await hoverText(document, document.getText().indexOf('TCK-99999999') + 3);
    assert.match(missing, /Record 99999999 is not in/);
  });
});
