// The language model tools in a real VS Code, invoked the way another extension or an agent does it:
// vscode.lm.invokeTool, without a chat's invocation token. VS Code then confirms a changing tool with a
// modal dialog; while extension tests run, its dialog service answers every confirmation "yes" without
// showing it (DialogService.skipDialogs in code-server 1.139), so the test sees the confirmation's text
// through the test API's observer, which is awaited before VS Code gets the confirmation: what the
// emulator logged by then is everything sent before the user could answer.
//
// Declining is not tested here, nor in a journey: "Cancel" is VS Code's own dialog (or the chat's inline
// confirmation), which then never calls invoke. A journey would need a person to start a tool call, and in
// code-server 1.139 only a chat model does that: its one chat agent is the built-in GitHub Copilot Chat,
// which asks the person to sign in to GitHub before sending anything (a model of one's own, a Custom
// Endpoint in chatLanguageModels.json, was not offered without that sign-in), and VS Code has no command
// that runs a tool. What the extension guarantees is tested instead: prepare sends nothing (only GETs
// before the confirmation, below), and an invoke without a prepared plan sends nothing (unit test
// "sends nothing when the record changed after the confirmation, or when no confirmation was prepared").
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Prepared } from '../../src/tools/toolSet';
import { closeAllEditors, emulatorRecord, openRecord, requestMark, requestsSince } from './support/documents';
import { emulatorControl } from './support/emulator';
import { connectEmulator, removeAllPortals, removePortal } from './support/portals';
import { testApi } from './support/extension';
import { useScriptedPrompter } from './support/prompter';
import { waitFor } from './support/wait';
import { useConnectedPortal } from './documents/support';

const READING = ['portal_listPortalsAndApps', 'portal_describeApp', 'portal_queryView', 'portal_readRecord'];
const CHANGING = ['portal_createRecord', 'portal_updateRecord', 'portal_addComment'];

async function invoke(name: string, input: object, token?: vscode.CancellationToken): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);
  assert.equal(result.content.length, 1, 'one text part');
  const [part] = result.content;
  assert.ok(part instanceof vscode.LanguageModelTextPart, 'a LanguageModelTextPart');
  return part.value;
}

function portalTools(): string[] {
  return vscode.lm.tools
    .map((tool) => tool.name)
    .filter((name) => name.startsWith('portal_'))
    .sort();
}

async function allowChanges(value: boolean | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('portal').update('agent.allowChanges', value, vscode.ConfigurationTarget.Global);
}

describe('language model tools through vscode.lm.invokeTool', function () {
  this.timeout(60_000);
  const portal = useConnectedPortal();
  // Messages (the offer to sign in) are recorded, and dismissed unless a test answers them.
  const prompts = useScriptedPrompter();
  const prepared: Array<{ tool: string; prepared: Prepared; requestsBefore: string[] }> = [];
  let start = 0;

  beforeEach(async () => {
    prepared.length = 0;
    start = await requestMark();
    (await testApi()).setToolPreparedObserver(async (tool, invocation) => {
      prepared.push({ tool, prepared: invocation, requestsBefore: await requestsSince(start) });
    });
  });
  afterEach(async () => {
    (await testApi()).setToolPreparedObserver(undefined);
    await allowChanges(undefined);
  });

  it('registers the seven tools as package.json describes them', async () => {
    portal();
    // lm.tools lists contributed tools whatever their when clause (VS Code 1.139); the chat applies it.
    await waitFor(() => portalTools().join() === [...READING, ...CHANGING].sort().join(), {
      message: `the seven tools, got ${portalTools().join(', ')}`,
      timeoutMs: 10_000,
    });
    const query = vscode.lm.tools.find((tool) => tool.name === 'portal_queryView');
    assert.deepEqual(query?.tags, ['portal', 'records']);
    assert.match(query?.description ?? '', /cannot list views/);
    assert.deepEqual((query?.inputSchema as { required?: string[] } | undefined)?.required, ['app', 'view']);
    assert.match(vscode.lm.tools.find((tool) => tool.name === 'portal_updateRecord')?.description ?? '', /portal\.agent\.allowChanges/);
  });

  it("lists the portal's apps, describes an app and reads a record, saying what it reads", async () => {
    assert.match(
      await invoke('portal_listPortalsAndApps', {}),
      /^Portal "Emulator" \(id emulator\): signed in\.\n- site Operations .*Customers \(app 101\), Orders \(app 102\)/,
    );
    assert.match(
      await invoke('portal_describeApp', { app: 'Orders' }),
      /^- f19 \(Status\): Choice; one of: New, Confirmed, Shipped, Delivered, Cancelled; default New$/m,
    );
    const record = await invoke('portal_readRecord', { portal: portal(), app: '102', record: '5' });
    assert.match(record, /^Record 5 of Orders \(app 102\) on portal "Emulator"\.$/m);
    assert.match(record, /^- f19 \(Status\): Cancelled \(id 5\)$/m);
    assert.deepEqual(
      prepared.map((entry) => [entry.tool, entry.prepared.invocationMessage, entry.prepared.confirmation]),
      [
        ['portal_listPortalsAndApps', 'Reading the connected portals, their sites and apps', undefined],
        ['portal_describeApp', 'Reading the columns of Orders', undefined],
        ['portal_readRecord', `Reading record 5 of 102 on ${portal()}`, undefined],
      ],
    );
  });

  it('answers "which open tickets of Acme are older than a week?" with a bounded list', async () => {
    await (await testApi()).views.add(portal(), '201', { viewId: '7', name: 'Open tickets' });
    const answer = await invoke('portal_queryView', {
      app: 'Tickets',
      view: 'Open tickets',
      filters: [
        { column: 'Customer', operator: 'equals', value: 'Acme Corporation' },
        { column: 'Opened', operator: 'lessThan', value: '18-11-2026 00:00' },
      ],
    });
    const lines = answer.split('\n');
    assert.ok(Number(/: (\d+) rows?\.$/.exec(lines[0])?.[1]) > 0, lines[0]);
    assert.match(
      lines[0],
      /^View "Open tickets" \(7\) of Tickets \(app 201\) on portal "Emulator" with the filters Customer equals "Acme Corporation" AND Opened less than "18-11-2026 00:00": \d+ rows?\.$/,
    );
    assert.ok(answer.length <= 12_000, `${answer.length} characters`);
    assert.ok(lines.length <= 2 + 20 + 1, `at most 20 rows by default: ${lines.length} lines`);
    for (const row of lines.slice(2).filter((line) => !line.startsWith('…')))
      assert.match(row, /\| Acme Corporation \| (Low|Normal|High|Critical) \| /);
    assert.ok((await requestsSince(start)).some((line) => line.startsWith('GET /api/v1/app/201/view/7 200')));
    assert.equal(prepared.length, 1);
    assert.equal(prepared[0].prepared.invocationMessage, 'Reading view Open tickets of Tickets with 2 filters', 'what it will read');
    assert.equal(prepared[0].prepared.confirmation, undefined, 'a reading tool asks nothing');
    assert.deepEqual(prepared[0].requestsBefore, [], 'nothing read before VS Code shows the message');
  });

  it('updates only the changed field of an order after its confirmation, and sent nothing before it', async () => {
    await allowChanges(true);
    const answer = await invoke('portal_updateRecord', { app: 'Orders', record: '2', fields: { Status: 'Delivered', Quantity: '6' } });
    assert.equal(
      answer,
      'Updated record 2 of Orders (app 102) on portal "Emulator"; sent only these fields:\n- f19 (Status): "Shipped" → "Delivered"',
    );
    assert.equal(prepared.length, 1);
    assert.deepEqual(prepared[0].prepared.confirmation, {
      title: 'Change record 2 of Orders?',
      // Markdown, as VS Code renders it: the sentences escaped, what is sent in a fence.
      message: [
        'Portal Explorer will send these changes to record 2 of Orders \\(app 102\\) on portal \\"Emulator\\"\\:',
        '```\n- f19 (Status): "Shipped" → "Delivered"\n```',
        'Already holding the value asked for \\(not sent\\)\\: f18 \\(Quantity\\)\\.',
        'No other field is sent\\.',
      ].join('\n\n'),
    });
    assert.ok(
      prepared[0].requestsBefore.every((line) => line.startsWith('GET ')),
      `before the confirmation: ${prepared[0].requestsBefore.join(', ')}`,
    );
    const after = (await requestsSince(start)).slice(prepared[0].requestsBefore.length);
    assert.deepEqual(after, ['GET /api/v1/app/102/record/2 200', 'PUT /api/v1/app/102/record/2 200']);
    assert.equal((await emulatorRecord('102', '2')).data.f19, '4');
  });

  it('sends nothing when another user changed another field of the record between the confirmation and the send', async () => {
    await allowChanges(true);
    const api = await testApi();
    const before = await emulatorRecord('102', '3');
    let changedAt = 0;
    api.setToolPreparedObserver(async (tool, invocation) => {
      prepared.push({ tool, prepared: invocation, requestsBefore: await requestsSince(start) });
      // Someone else, while the user reads the confirmation: a field the tool does not touch.
      await api.portals.client(portal()).updateRecord('102', '3', { f11: 'Renamed by a colleague' });
      changedAt = await requestMark();
    });
    const answer = await invoke('portal_updateRecord', { app: 'Orders', record: '3', fields: { Quantity: '14' } });
    assert.equal(
      answer,
      `Record 3 of Orders changed in the portal after the user confirmed: f11 (Title) is now "Renamed by a colleague", was ${JSON.stringify(before.data.f11)}. Nothing was sent; run the tool again so the user confirms against the current values.`,
    );
    assert.match(prepared[0].prepared.confirmation?.message ?? '', /^- f18 \(Quantity\): "12" → "14"$/m);
    assert.deepEqual(await requestsSince(changedAt), ['GET /api/v1/app/102/record/3 200'], 'read again, and no PUT followed');
    const after = await emulatorRecord('102', '3');
    assert.equal(after.data.f18, before.data.f18, 'the quantity is unchanged');
    assert.equal(after.data.f11, 'Renamed by a colleague', "the colleague's change stands");
  });

  it('creates an order after a confirmation that lists every field sent, and sent nothing before it', async () => {
    await allowChanges(true);
    const input = {
      app: 'Orders',
      fields: {
        Title: 'Desk lamps\nfor the north wing',
        'Order date': '05-02-2026',
        Amount: '230',
        Status: 'Confirmed',
        Tags: 'Fragile, Urgent',
      },
    };
    const answer = await invoke('portal_createRecord', input);
    const id = /^Created record (\d+) in Orders \(app 102\) on portal "Emulator"\.$/m.exec(answer)?.[1];
    assert.ok(id, answer);
    assert.match(answer, /^Filled in by the portal:\n- f10 \(Order no\.\): "\d+"$/m);
    assert.equal(prepared.length, 1);
    assert.deepEqual(prepared[0].prepared.confirmation, {
      title: 'Create a record in Orders?',
      message: [
        'Portal Explorer will create a record in Orders \\(app 102\\) on portal \\"Emulator\\" with these fields\\:',
        [
          '```',
          '- f11 (Title): "Desk lamps\\nfor the north wing"',
          '- f15 (Order date): "05-02-2026"',
          '- f17 (Amount): "230"',
          '- f19 (Status): "Confirmed"',
          '- f20 (Tags): "Fragile, Urgent"',
          '```',
        ].join('\n'),
        'Fields left out stay empty or take their default\\.',
      ].join('\n\n'),
    });
    assert.ok(
      prepared[0].requestsBefore.every((line) => line.startsWith('GET ')),
      `before the confirmation: ${prepared[0].requestsBefore.join(', ')}`,
    );
    assert.deepEqual((await requestsSince(start)).slice(prepared[0].requestsBefore.length), ['POST /api/v1/app/102/record/ 200']);
    const created = await emulatorRecord('102', id);
    assert.deepEqual(
      [created.data.f11, created.data.f15, created.data.f17, created.data.f19, created.data.f20, created.draft],
      ['Desk lamps\nfor the north wing', '05-02-2026', '230', '2', '4,1', false],
    );
  });

  it('adds a comment after its confirmation, with one POST after it', async () => {
    await allowChanges(true);
    const comment = 'Checked by the agent.\nThe address is confirmed.';
    assert.equal(
      await invoke('portal_addComment', { app: 'Customers', record: '2', comment }),
      'Added the comment (47 characters) to record 2 of Customers (app 101) on portal "Emulator".',
    );
    assert.equal(prepared[0].prepared.confirmation?.title, 'Comment on record 2 of Customers?');
    assert.equal(
      prepared[0].prepared.confirmation?.message,
      `Portal Explorer will add this comment to record 2 of Customers \\(app 101\\) on portal \\"Emulator\\"\\:\n\n\`\`\`\n${comment}\n\`\`\``,
    );
    assert.ok(
      prepared[0].requestsBefore.every((line) => line.startsWith('GET ')),
      `before the confirmation: ${prepared[0].requestsBefore.join(', ')}`,
    );
    assert.deepEqual((await requestsSince(start)).slice(prepared[0].requestsBefore.length), ['POST /api/v1/app/101/record/2/comment 200']);
    assert.equal((await emulatorRecord('101', '2')).comments.at(-1)?.comment, comment);
  });

  it("passes the portal's own message on when it refuses what was confirmed", async () => {
    await allowChanges(true);
    const answer = await invoke('portal_createRecord', { app: 'Customers', fields: { Name: 'Acme Corporation' } });
    assert.match(answer, /f2 \(Name\) must be unique; record \d+ has the same value\./, "the portal's words");
    assert.equal(answer.split('\n').length, 1, 'one sentence');
    assert.match(prepared[0].prepared.confirmation?.message ?? '', /^- f2 \(Name\): "Acme Corporation"$/m);
    assert.deepEqual((await requestsSince(start)).slice(prepared[0].requestsBefore.length), ['POST /api/v1/app/101/record/ 400']);
  });

  it('sends nothing when the call is cancelled at the confirmation', async () => {
    await allowChanges(true);
    const cancel = new vscode.CancellationTokenSource();
    (await testApi()).setToolPreparedObserver(async (tool, invocation) => {
      prepared.push({ tool, prepared: invocation, requestsBefore: await requestsSince(start) });
      cancel.cancel();
    });
    await assert.rejects(
      invoke('portal_addComment', { app: 'Customers', record: '1', comment: 'Never sent.' }, cancel.token),
      (error: Error) => error.name === 'Canceled' || /cancel/i.test(error.message),
    );
    assert.equal(
      prepared[0].prepared.confirmation?.message,
      'Portal Explorer will add this comment to record 1 of Customers \\(app 101\\) on portal \\"Emulator\\"\\:\n\n```\nNever sent.\n```',
    );
    assert.deepEqual(await requestsSince(start), prepared[0].requestsBefore, 'nothing after the confirmation');
    assert.ok((await requestsSince(start)).every((line) => line.startsWith('GET ')));
  });

  it('refuses a bad value, a change while the setting is off, and a signed-out portal, each in one sentence', async () => {
    await allowChanges(true);
    assert.equal(
      await invoke('portal_updateRecord', { app: 'Orders', record: '1', fields: { 'Order date': '2026-01-31' } }),
      'f15 (Order date): expected DD-MM-YYYY, got 2026-01-31. Nothing was sent; correct the value and try again.',
    );
    assert.equal(prepared[0].prepared.confirmation, undefined, 'nothing to confirm');
    await allowChanges(false);
    assert.match(
      await invoke('portal_createRecord', { app: 'Orders', fields: { Title: 'Lamps' } }),
      /^The tools that change portal data are turned off\. The user can turn them on with the setting "portal\.agent\.allowChanges"; nothing was sent\.$/,
    );
    const api = await testApi();
    await api.portals.signOut(portal());
    try {
      const mark = await requestMark();
      assert.equal(
        await invoke('portal_readRecord', { app: 'Orders', record: '1' }),
        'The portal "Emulator" (id emulator) cannot be used: it is signed out. The user must sign in first with the command "Portal: Sign In" (portal.signIn); nothing was read or sent.',
      );
      assert.deepEqual(await requestsSince(mark), []);
    } finally {
      await api.portals.signIn(portal());
    }
    assert.ok(
      (await requestsSince(start)).every((line) => line.startsWith('GET ')),
      'nothing but reads in this test',
    );
    const log = api.logLines().filter((line) => line.includes('[tools]'));
    assert.ok(log.length >= 3, log.join('\n'));
    assert.ok(
      log.every((line) => /portal_\w+ answered \(\d+ characters\)\.$/.test(line)),
      'the log names the tool, never a value',
    );
  });

  it('offers Sign In once per portal when a tool refuses for the sign-in, and signs in when the user chooses it', async () => {
    const api = await testApi();
    await emulatorControl('POST', 'clients', {
      client_id: 'night-client',
      client_secret: 'night-secret',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const night = await connectEmulator({ label: 'Night shift', client: { id: 'night-client', secret: 'night-secret' } });
    try {
      await api.portals.signOut(night);
      const scripted = prompts().answerMessage('Sign In', /needs you to sign in/);
      const mark = await requestMark();
      assert.equal(
        await invoke('portal_readRecord', { portal: 'Night shift', app: 'Orders', record: '1' }),
        `The portal "Night shift" (id ${night}) cannot be used: it is signed out. The user must sign in first with the command "Portal: Sign In" (portal.signIn); nothing was read or sent.`,
      );
      const offer = await scripted.waitForMessage(/needs you to sign in/);
      assert.deepEqual(
        [offer.level, offer.message, offer.actions],
        [
          'info',
          'An agent\'s tool asked for the portal "Night shift", which needs you to sign in. Sign in to let the agent use it.',
          ['Sign In'],
        ],
      );
      await waitFor(() => api.portals.state(night) === 'signedIn', { message: 'Sign In to sign the portal in' });
      await api.portals.signOut(night);
      assert.match(
        await invoke('portal_describeApp', { portal: 'Night shift', app: 'Orders' }),
        /it is signed out\. The user must sign in first with the command "Portal: Sign In"/,
      );
      assert.equal(
        scripted.messages.filter((message) => /needs you to sign in/.test(message.message)).length,
        1,
        'offered once for the portal in this session',
      );
      assert.ok(
        (await requestsSince(mark)).every((line) => !line.includes('/api/v1/')),
        'no data read for a signed-out portal',
      );
    } finally {
      await removePortal(night);
    }
  });

  it('asks which portal when several are connected, and takes one by its name', async () => {
    await emulatorControl('POST', 'clients', {
      client_id: 'tools-client',
      client_secret: 'tools-secret',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const second = await connectEmulator({ label: 'Staging', client: { id: 'tools-client', secret: 'tools-secret' } });
    try {
      assert.match(
        await invoke('portal_describeApp', { app: 'Orders' }),
        /^Several portals are connected: "Emulator" \(id emulator\), "Staging" \(id staging\)\. Ask the user which one, and give its name or id as "portal"\.$/,
      );
      assert.match(await invoke('portal_describeApp', { portal: 'Staging', app: 'Orders' }), /^Orders \(app 102\) on portal "Staging"/);
      assert.match(
        await invoke('portal_describeApp', { portal: 'Production', app: 'Orders' }),
        /^No connected portal is named "Production"\. Connected portals: "Emulator" \(id emulator\), "Staging" \(id staging\)\./,
      );
    } finally {
      await removePortal(second);
    }
  });

  it('reloads an open record document that a tool changed', async () => {
    await allowChanges(true);
    const document = await openRecord(portal(), '102', '6');
    assert.equal((JSON.parse(document.getText()) as Record<string, string>).f18, '8');
    try {
      assert.match(
        await invoke('portal_updateRecord', { app: 'Orders', record: '6', fields: { Quantity: '9' } }),
        /^Updated record 6 of Orders/,
      );
      await waitFor(() => (JSON.parse(document.getText()) as Record<string, string>).f18 === '9', {
        message: 'the open document to show the new quantity',
      });
      assert.equal(document.isDirty, false);
    } finally {
      await closeAllEditors();
    }
  });
});

describe('language model tools: the key of their when clauses', function () {
  this.timeout(60_000);
  after(() => removeAllPortals());

  it('sets portal.tools.connected true when a portal is added and false when the last one is removed', async () => {
    const api = await testApi();
    await removeAllPortals();
    await waitFor(() => api.toolsContext()['portal.tools.connected'] === false, {
      message: `portal.tools.connected false with no portal: ${JSON.stringify(api.toolsContext())}`,
    });
    assert.equal(api.toolsContext()['portal.portalsRead'], true);
    const first = await connectEmulator();
    await waitFor(() => api.toolsContext()['portal.tools.connected'] === true, {
      message: 'portal.tools.connected true once a portal is added',
    });
    await emulatorControl('POST', 'clients', {
      client_id: 'tools-client',
      client_secret: 'tools-secret',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const second = await connectEmulator({ label: 'Staging', client: { id: 'tools-client', secret: 'tools-secret' } });
    await removePortal(first);
    assert.equal(api.toolsContext()['portal.tools.connected'], true, 'still true while one portal remains');
    await removePortal(second);
    await waitFor(() => api.toolsContext()['portal.tools.connected'] === false, {
      message: 'portal.tools.connected false once the last portal is removed',
    });
  });
});
