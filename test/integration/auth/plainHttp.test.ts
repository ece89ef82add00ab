// Add Portal with a plain http:// address on another machine (issue 30, item 7): a modal warning says what
// would travel in clear text, and nothing is sent before the user confirms; the answer is remembered with
// the connection, so a later sign-in does not ask again. "Another machine" is this one's host name, which
// the URL rule does not take for loopback while the hosts file maps it to loopback (no test traffic leaves
// this machine); a TCP forwarder there passes connections on to the emulator and counts them.
import * as assert from 'node:assert/strict';
import { createConnection, createServer, type AddressInfo, type Server } from 'node:net';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import * as vscode from 'vscode';
import { emulator, resetEmulator } from '../support/emulator';
import { testApi } from '../support/extension';
import { removeAllPortals } from '../support/portals';
import { useScriptedPrompter } from '../support/prompter';

const HOST_NAME = hostname();

describe('sign-in: a portal over plain http://', () => {
  const prompter = useScriptedPrompter();
  let forwarder: Server;
  let connections = 0;
  let base = '';

  before(async () => {
    const { address } = await lookup(HOST_NAME);
    assert.match(address, /^127\./, `the host name "${HOST_NAME}" must resolve to loopback for this test, not ${address}`);
    const target = new URL(emulator().base_url);
    forwarder = createServer((socket) => {
      connections += 1;
      const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    base = `http://${HOST_NAME}:${(forwarder.address() as AddressInfo).port}`;
  });
  after(async () => {
    await removeAllPortals();
    await new Promise<void>((resolve) => forwarder.close(() => resolve()));
  });
  beforeEach(async () => {
    await resetEmulator();
    await removeAllPortals();
    connections = 0;
  });

  function details(): ReturnType<typeof prompter> {
    return prompter()
      .answerInputBox(base, /Base URL/)
      .answerInputBox('Plain')
      .answerInputBox(emulator().client_id)
      .answerInputBox(emulator().client_secret)
      .answerQuickPick('Client Credentials');
  }

  it('warns before sending anything; declined, it asks the details again and sends nothing', async () => {
    const api = await testApi();
    const scripted = details()
      .answerMessage(undefined, /without encryption/)
      .answerInputBox(undefined, /Base URL/);
    assert.equal(await vscode.commands.executeCommand('portal.addPortal'), undefined);
    const warning = scripted.messages.find((message) => /without encryption/.test(message.message));
    assert.ok(warning, 'the warning was shown');
    assert.equal(warning.modal, true);
    assert.ok(warning.message.includes(base), warning.message);
    assert.deepEqual(warning.actions, ['Use http:// Anyway']);
    assert.equal(scripted.prompts.filter((prompt) => /Base URL/.test(prompt.text)).length, 2, 'the details were asked again');
    assert.equal(connections, 0, 'nothing reached the portal');
    assert.deepEqual(api.portals.list(), []);
  });

  it('confirmed, connects, remembers the answer with the connection, and does not ask again', async () => {
    const api = await testApi();
    details().answerMessage('Use http:// Anyway', /without encryption/);
    const id = await vscode.commands.executeCommand<string>('portal.addPortal');
    assert.equal(api.portals.state(id), 'signedIn');
    assert.equal(api.portals.get(id)?.allowPlainHttp, true);
    assert.deepEqual(
      (await api.portals.client(id).listSites()).map((site) => site.name),
      ['Operations', 'Support'],
    );
    assert.ok(connections > 0);
    // No answer queued: a second question would fail the test (the scripted prompter's verify).
    await api.portals.signIn(id);
    assert.equal(api.portals.state(id), 'signedIn');
  });
});
