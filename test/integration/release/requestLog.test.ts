// The "Portal Explorer" log channel as a user reads it: one line per request to the portal (method, path,
// status, time), the token calls included, and never a token, a secret, a code or a record value.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, emulatorRecord, openRecord, setField } from '../support/documents';
import { BROWSER_TAG, driver } from '../support/driver';
import { emulator } from '../support/emulator';
import { testApi } from '../support/extension';
import { waitForOutputChannel } from '../support/output';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';
import { useConnectedPortal } from '../documents/support';

const REQUEST_LINE = /^info: \[http\] (\S+): (GET|POST|PUT|DELETE) (\/\S*) (\d{3}|error) (\d+) ms$/;

describe('the request log', () => {
  useScriptedPrompter();
  const portal = useConnectedPortal();

  it('has one line per request, token calls included, with no query, token, secret or value', async () => {
    const api = await testApi();
    const before = api.logMark();
    const document = await openRecord(portal(), '102', '2');
    await setField(document, 'f11', 'Logged but never written down');
    await document.save();
    await waitFor(async () => (await emulatorRecord('102', '2')).data.f11 === 'Logged but never written down', {
      message: 'the save to reach the portal',
    });
    const lines = api.logLinesSince(before);
    const requests = lines.filter((line) => line.startsWith('info: [http] '));
    for (const line of requests) assert.match(line, REQUEST_LINE, 'method, path without query, status, duration');
    const paths = requests.map((line) => REQUEST_LINE.exec(line)?.slice(2, 5).join(' '));
    assert.ok(paths.includes('GET /api/v1/app/102/record/2 200'), `the read is logged: ${paths.join(' | ')}`);
    assert.ok(paths.includes('PUT /api/v1/app/102/record/2 200'), 'the update is logged');

    // A token renewal is a request too: sign out and in again (client credentials: a token call).
    const beforeSignIn = api.logMark();
    await api.portals.signOut(portal());
    await api.portals.signIn(portal());
    const tokenLines = api.logLinesSince(beforeSignIn).filter((line) => REQUEST_LINE.test(line));
    assert.ok(
      tokenLines.some((line) => line.endsWith(' ms') && line.includes(`[http] ${portal()}: POST /api/v1/oauth2/token 200 `)),
      `the token call is logged: ${tokenLines.join(' | ')}`,
    );

    const stored = await api.context.secrets.get(`portal.tokens.${portal()}`);
    const accessToken = stored ? (JSON.parse(stored) as { tokens: { accessToken: string; refreshToken?: string } }).tokens.accessToken : '';
    const all = api.logLines().join('\n');
    for (const secret of [accessToken, emulator().client_secret, 'Logged but never written down']) {
      assert.ok(secret.length > 0 && !all.includes(secret), 'no token, secret or record value in the log');
    }
    assert.ok(!/\bAuthorization\s*[:=]|\bBearer\s+\w|\bBasic\s+[A-Za-z0-9+/=]{8}/i.test(all), 'no Authorization header');
    await closeAllEditors();
  });

  it(`opens with Portal: Show Log ${BROWSER_TAG}`, async () => {
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('portal.showLog');
    const shown = await waitForOutputChannel('Portal Explorer');
    assert.equal(shown, 'Portal Explorer');
    await waitFor(async () => (await driver.texts('.part.panel .view-lines')).join('\n').includes('[http]'), {
      message: 'the request lines in the Output panel',
    });
    await driver.screenshot('log-channel');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });
});
