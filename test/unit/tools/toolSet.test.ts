// The seven tools end to end in plain node against the emulator over HTTP: the host is the real portal
// client (client credentials), the emulator's own request log says what was sent and when.
import * as assert from 'node:assert/strict';
import type { PortalClient } from '../../../src/api/client';
import type { RowStore } from '../../../src/api/rowStore';
import type { Column } from '../../../src/api/types';
import type { ToolHost, ToolPortal } from '../../../src/tools/host';
import { TOOL_NAMES } from '../../../src/tools/names';
import { PortalTools } from '../../../src/tools/toolSet';
import { clientFor, CredentialsTokens, startPortal, testInterface, type Emulator } from '../api/portal';
import { readableText } from '../support/markdownText';

interface Logged {
  seq: number;
  method: string;
  path: string;
  query: string;
  status: number;
}

describe('language model tools against the emulator', function () {
  let emulator: Emulator;
  let client: PortalClient;
  let allow = true;
  let portals: ToolPortal[] = [];
  const changed: string[] = [];
  const offered: string[] = [];
  let host: ToolHost;
  let tools: PortalTools;
  const columnsRead = new Map<string, Promise<readonly Column[]>>();

  before(async () => {
    emulator = await startPortal();
    ({ client } = clientFor(emulator));
    host = {
      portals: () => portals,
      activePortal: () => portals[0]?.id,
      client: () => client,
      sites: (_portal, signal) => client.listSites(signal),
      // As the catalog does: each app's columns read once.
      columns: (_portal, appId, signal) => {
        const read = columnsRead.get(appId) ?? client.listColumns(appId, signal);
        columnsRead.set(appId, read);
        return read;
      },
      views: (_portal, appId) => (appId === '201' ? [{ viewId: '7', name: 'Open tickets' }] : []),
      allowChanges: () => allow,
      recordChanged: (_portal, appId, recordId, kind) => changed.push(`${kind} ${appId}/${recordId}`),
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      offerSignIn: (portalId) => offered.push(portalId),
    };
    tools = new PortalTools(host);
  });
  beforeEach(() => {
    allow = true;
    portals = [{ id: 'emulator', label: 'Emulator', state: 'signedIn' }];
    changed.length = 0;
    offered.length = 0;
  });
  after(() => emulator.close());

  async function mark(): Promise<number> {
    const log = (await testInterface(emulator, 'GET', 'requests')) as Logged[];
    return log.length === 0 ? 0 : log[log.length - 1].seq;
  }

  async function since(seq: number): Promise<string[]> {
    const log = (await testInterface(emulator, 'GET', `requests?since=${seq}`)) as Logged[];
    return log.filter((entry) => !entry.path.includes('/oauth2/')).map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
  }

  async function record(appId: string, recordId: string): Promise<Record<string, string>> {
    return ((await testInterface(emulator, 'GET', `records/${appId}/${recordId}`)) as { data: Record<string, string> }).data;
  }

  it("lists portals, sites and apps, and describes an app's columns with choices by name", async () => {
    const list = await tools.invoke(TOOL_NAMES.listPortalsAndApps, {});
    assert.match(list, /^Portal "Emulator" \(id emulator\): signed in\.$/m);
    assert.match(list, /^- site Operations \(.*\): Customers \(app 101\), Orders \(app 102\)$/m);
    const described = await tools.invoke(TOOL_NAMES.describeApp, { app: 'orders' });
    assert.match(described, /^Orders \(app 102\) on portal "Emulator", site Operations; has Draft mode/);
    assert.match(described, /^- f19 \(Status\): Choice; one of: New, Confirmed, Shipped, Delivered, Cancelled; default New$/m);
    assert.match(described, /^- f13 \(Customer\): LookUp; read-only \(the portal fills it\); shows a field of app 101$/m);
    assert.match(described, /^- f15 \(Order date\): Date; DD-MM-YYYY; required$/m);
    assert.match(await tools.invoke(TOOL_NAMES.describeApp, { app: 'Tickets' }), /Views added in VS Code: Open tickets \(view 7\)/);
  });

  it('queries a view with filters by name and answers the first rows within the bound', async () => {
    const start = await mark();
    const answer = await tools.invoke(TOOL_NAMES.queryView, {
      app: 'Tickets',
      view: 'Open tickets',
      filters: [{ column: 'Priority', operator: 'equals', value: 'High' }],
      limit: 5,
    });
    const lines = answer.split('\n');
    const count = Number(/: (\d+) rows\.$/.exec(lines[0])?.[1]);
    assert.ok(count > 5, lines[0]);
    assert.match(
      lines[0],
      /^View "Open tickets" \(7\) of Tickets \(app 201\) on portal "Emulator" with the filters Priority equals "High": \d+ rows\.$/,
    );
    assert.equal(lines.length, 2 + 5 + 1);
    assert.match(lines[2], /^\d+ \| 1\d{5} \| .* \| High \| /, 'choice names, not ids');
    assert.equal(lines[7], `… ${count - 5} more rows left out (of ${count}); narrow the filters or raise "limit" (at most 100).`);
    const requests = await since(start);
    assert.ok(
      requests.some((line) => /^GET \/api\/v1\/app\/201\/view\/7 200$/.test(line)),
      requests.join('\n'),
    );
    const big = await tools.invoke(TOOL_NAMES.queryView, { app: '201', view: '6', limit: 100 });
    assert.ok(big.length <= 12_000, `${big.length} characters`);
    assert.match(big, /more rows left out \(of 300\)/);
  });

  it('queries a view as it arrives, never parsing the whole answer into objects, and gives the rows back', async () => {
    const stores: RowStore[] = [];
    const streaming = Object.create(client) as PortalClient;
    streaming.readView = () => Promise.reject(new Error('the whole view was parsed into objects'));
    streaming.streamView = async (...args) => {
      const read = await client.streamView(...args);
      stores.push(read.rows);
      return read;
    };
    const session = new PortalTools({ ...host, client: () => streaming });
    const answer = await session.invoke(TOOL_NAMES.queryView, { app: '201', view: '6', limit: 3 });
    const lines = answer.split('\n');
    assert.match(lines[0], /^View "View 6" \(6\) of Tickets \(app 201\) on portal "Emulator": 300 rows\.$/);
    assert.equal(lines.length, 2 + 3 + 1);
    assert.match(lines[2], /^\d+ \| /);
    assert.equal(lines[5], '… 297 more rows left out (of 300); narrow the filters or raise "limit" (at most 100).');
    assert.equal(stores.length, 1, 'read once, as it arrived');
    assert.ok(stores[0].isReleased, 'the rows are given back once answered');
  });

  it('reads a record with field names, choice names and ids', async () => {
    const answer = await tools.invoke(TOOL_NAMES.readRecord, { app: 'Orders', record: '4' });
    assert.match(answer, /^Record 4 of Orders \(app 102\) on portal "Emulator"\.$/m);
    assert.match(answer, /^- f19 \(Status\): New \(id 1\)$/m);
    assert.match(answer, /^- f20 \(Tags\): Urgent, Gift \(id 1,2\)$/m);
    assert.match(answer, /^- f13 \(Customer\): Hooli$/m);
  });

  it('refuses to read a record without an id before asking the portal anything', async () => {
    const start = await mark();
    for (const record of ['', '  ', undefined]) {
      assert.equal(
        await tools.invoke(TOOL_NAMES.readRecord, { app: 'Orders', record }),
        'No record was given: "record" must be the record\'s id.',
      );
    }
    assert.deepEqual(await since(start), [], 'nothing read, GET …/record/ least of all');
  });

  it('updates only the changed fields after the confirmation, and nothing before it', async () => {
    const before = await record('102', '2');
    const start = await mark();
    const prepared = await tools.prepare(TOOL_NAMES.updateRecord, {
      app: 'Orders',
      record: '2',
      fields: { Status: 'Delivered', Title: before.f11 },
    });
    assert.deepEqual(prepared.confirmation, {
      title: 'Change record 2 of Orders?',
      // Markdown: the sentences escaped, what is sent in a fence (the test below reads it rendered).
      message: [
        'Portal Explorer will send these changes to record 2 of Orders \\(app 102\\) on portal \\"Emulator\\"\\:',
        '```\n- f19 (Status): "Shipped" → "Delivered"\n```',
        'Already holding the value asked for \\(not sent\\)\\: f11 \\(Title\\)\\.',
        'No other field is sent\\.',
      ].join('\n\n'),
    });
    const prepareRequests = await since(start);
    assert.ok(
      prepareRequests.every((line) => line.startsWith('GET ')),
      `only reads before the confirmation: ${prepareRequests.join(', ')}`,
    );
    const afterPrepare = await mark();
    const answer = await tools.invoke(TOOL_NAMES.updateRecord, {
      app: 'Orders',
      record: '2',
      fields: { Status: 'Delivered', Title: before.f11 },
    });
    assert.equal(
      answer,
      'Updated record 2 of Orders (app 102) on portal "Emulator"; sent only these fields:\n- f19 (Status): "Shipped" → "Delivered"',
    );
    assert.deepEqual(await since(afterPrepare), ['GET /api/v1/app/102/record/2 200', 'PUT /api/v1/app/102/record/2 200']);
    assert.equal((await record('102', '2')).f19, '4');
    assert.deepEqual(changed, ['updated 102/2']);
  });

  it('shows a long value with several lines in full in the confirmation, and refuses one too long to show', async () => {
    const title = `${'x'.repeat(149)}\n${'y'.repeat(150)}`;
    assert.equal(title.length, 300);
    const before = await record('102', '2');
    const update = { app: 'Orders', record: '2', fields: { Title: title } };
    const updating = await tools.prepare(TOOL_NAMES.updateRecord, update);
    assert.ok(
      updating.confirmation?.message.split('\n').includes(`- f11 (Title): ${JSON.stringify(before.f11)} → ${JSON.stringify(title)}`),
      updating.confirmation?.message,
    );
    const creating = await tools.prepare(TOOL_NAMES.createRecord, {
      app: 'Orders',
      fields: { Title: title, 'Order date': '05-02-2026', Amount: '1' },
    });
    assert.ok(
      creating.confirmation?.message.split('\n').includes(`- f11 (Title): ${JSON.stringify(title)}`),
      creating.confirmation?.message,
    );
    const start = await mark();
    const tooLong = { app: 'Orders', record: '2', fields: { Title: 'z'.repeat(4001) } };
    assert.equal((await tools.prepare(TOOL_NAMES.updateRecord, tooLong)).confirmation, undefined, 'nothing to confirm');
    assert.equal(
      await tools.invoke(TOOL_NAMES.updateRecord, tooLong),
      'f11 (Title) is 4001 characters long; this tool sends at most 4000 characters per value, so that the confirmation shows all of it. Nothing was sent; shorten the value, or ask the user to enter it in Portal Explorer.',
    );
    assert.ok(
      (await since(start)).every((line) => line.startsWith('GET ')),
      'nothing sent',
    );
  });

  it("sends nothing when another field of the record changed after the confirmation, as a document's save would", async () => {
    const input = { app: 'Orders', record: '3', fields: { Quantity: '14' } };
    const before = await record('102', '3');
    await tools.prepare(TOOL_NAMES.updateRecord, input);
    await client.updateRecord('102', '3', { f11: 'Renamed elsewhere' }); // someone else, meanwhile, another field
    const start = await mark();
    const answer = await tools.invoke(TOOL_NAMES.updateRecord, input);
    assert.equal(
      answer,
      `Record 3 of Orders changed in the portal after the user confirmed: f11 (Title) is now "Renamed elsewhere", was ${JSON.stringify(before.f11)}. Nothing was sent; run the tool again so the user confirms against the current values.`,
    );
    assert.deepEqual(await since(start), ['GET /api/v1/app/102/record/3 200'], 'read again, nothing sent');
    assert.equal((await record('102', '3')).f18, before.f18);
    assert.deepEqual(changed, []);
  });

  it('sends nothing when the record changed after the confirmation, or when no confirmation was prepared', async () => {
    const input = { app: 'Orders', record: '3', fields: { Quantity: '14' } };
    await tools.prepare(TOOL_NAMES.updateRecord, input);
    await client.updateRecord('102', '3', { f18: '13' }); // someone else, meanwhile
    const start = await mark();
    const answer = await tools.invoke(TOOL_NAMES.updateRecord, input);
    assert.equal(
      answer,
      'Record 3 of Orders changed in the portal after the user confirmed: f18 (Quantity) is now "13", was "12". Nothing was sent; run the tool again so the user confirms against the current values.',
    );
    assert.deepEqual(await since(start), ['GET /api/v1/app/102/record/3 200']);
    const unprepared = await tools.invoke(TOOL_NAMES.updateRecord, input);
    assert.match(unprepared, /was not prepared and confirmed first, so nothing was sent/);
    assert.deepEqual(await since(start), ['GET /api/v1/app/102/record/3 200']);
  });

  it('refuses a change prepared twice before its confirmation, so the first dialog never sends the second plan unchecked', async () => {
    const input = { app: 'Orders', record: '5', fields: { Quantity: '14' } };
    const before = await record('102', '5');
    assert.notEqual(before.f18, '14');
    await tools.prepare(TOOL_NAMES.updateRecord, input); // the user is shown Quantity before → 14
    await client.updateRecord('102', '5', { f18: '13' }); // a colleague, meanwhile
    await tools.prepare(TOOL_NAMES.updateRecord, input); // the same request prepared again: 13 → 14
    const start = await mark();
    const answer = await tools.invoke(TOOL_NAMES.updateRecord, input); // the user accepts the first dialog
    assert.equal(
      answer,
      'This change was prepared twice before it was confirmed, so it is not clear which confirmation the user gave; nothing was sent. Call the tool again.',
    );
    assert.ok(
      (await since(start)).every((line) => line.startsWith('GET ')),
      'nothing sent',
    );
    assert.equal((await record('102', '5')).f18, '13', "the colleague's value stays");
    assert.match(
      await tools.invoke(TOOL_NAMES.updateRecord, input),
      /was not prepared and confirmed first/,
      'the second dialog sends nothing either',
    );
    assert.equal((await record('102', '5')).f18, '13');
    assert.deepEqual(changed, []);
  });

  it('sends nothing and asks nothing when the record already holds the values', async () => {
    const input = { app: 'Orders', record: '1', fields: { Status: 'Delivered' } };
    const start = await mark();
    assert.equal((await tools.prepare(TOOL_NAMES.updateRecord, input)).confirmation, undefined);
    assert.equal(
      await tools.invoke(TOOL_NAMES.updateRecord, input),
      'Record 1 of Orders already holds every value asked for (f19 (Status)); nothing was sent.',
    );
    assert.ok((await since(start)).every((line) => line.startsWith('GET ')));
  });

  it('refuses a bad value before anything is sent, in one sentence naming the field', async () => {
    const input = { app: 'Orders', record: '1', fields: { 'Order date': '2026-01-31' } };
    const start = await mark();
    const prepared = await tools.prepare(TOOL_NAMES.updateRecord, input);
    assert.equal(prepared.confirmation, undefined, 'nothing to confirm: nothing will be sent');
    assert.equal(
      await tools.invoke(TOOL_NAMES.updateRecord, input),
      'f15 (Order date): expected DD-MM-YYYY, got 2026-01-31. Nothing was sent; correct the value and try again.',
    );
    assert.ok((await since(start)).every((line) => line.startsWith('GET ')));
  });

  it('refuses "fields" given as anything but an object of fields, before anything is sent', async () => {
    const start = await mark();
    for (const fields of ['Status: Delivered', ['Status', 'Delivered'], null]) {
      for (const [name, input] of [
        [TOOL_NAMES.updateRecord, { app: 'Orders', record: '3', fields }],
        [TOOL_NAMES.createRecord, { app: 'Orders', fields }],
      ] as const) {
        assert.equal((await tools.prepare(name, input)).confirmation, undefined, `${name} ${JSON.stringify(fields)}: nothing to confirm`);
        assert.equal(
          await tools.invoke(name, input),
          '"fields" must be an object of field name or id → value, e.g. {"Status": "Delivered"}. Nothing was sent.',
          `${name} ${JSON.stringify(fields)}`,
        );
      }
    }
    assert.ok(
      (await since(start)).every((line) => line.startsWith('GET ')),
      'nothing sent',
    );
  });

  it("includes the portal's own message when the portal refuses a value", async () => {
    const input = { app: 'Customers', record: '2', fields: { Name: 'Acme Corporation' } };
    await tools.prepare(TOOL_NAMES.updateRecord, input);
    const answer = await tools.invoke(TOOL_NAMES.updateRecord, input);
    assert.match(answer, /^Updating record 2 of app 101 failed: .*\(HTTP 400\): f2 \(Name\) .*$/);
    assert.equal(answer.split('\n').length, 1);
  });

  it('creates a record and comments on it after confirmations that show what is sent', async () => {
    const input = {
      app: 'Orders',
      fields: { Title: 'Desk lamps', 'Order date': '05-02-2026', Amount: '230', Status: 'Confirmed', Tags: 'Fragile, Urgent' },
    };
    const prepared = await tools.prepare(TOOL_NAMES.createRecord, input);
    assert.equal(prepared.confirmation?.title, 'Create a record in Orders?');
    assert.match(prepared.confirmation?.message ?? '', /^- f19 \(Status\): "Confirmed"$/m);
    assert.match(prepared.confirmation?.message ?? '', /^- f20 \(Tags\): "Fragile, Urgent"$/m);
    const created = await tools.invoke(TOOL_NAMES.createRecord, input);
    const id = /^Created record (\d+) in Orders/.exec(created)?.[1];
    assert.ok(id, created);
    assert.match(created, /^- f10 \(Order no\.\): "\d+"$/m, 'what the portal filled in');
    assert.equal((await record('102', id)).f20, '4,1', 'choice names sent as ids, in the order given');
    const comment = { app: 'Orders', record: id, comment: 'Created by the agent.\nPlease check the amount.' };
    const confirm = await tools.prepare(TOOL_NAMES.addComment, comment);
    assert.equal(
      confirm.confirmation?.message,
      `Portal Explorer will add this comment to record ${id} of Orders \\(app 102\\) on portal \\"Emulator\\"\\:\n\n\`\`\`\nCreated by the agent.\nPlease check the amount.\n\`\`\``,
    );
    const start = await mark();
    assert.equal(
      await tools.invoke(TOOL_NAMES.addComment, comment),
      `Added the comment (46 characters) to record ${id} of Orders (app 102) on portal "Emulator".`,
    );
    assert.deepEqual(await since(start), [`POST /api/v1/app/102/record/${id}/comment 200`]);
  });

  it('changes nothing while the setting is off, and reads nothing from a signed-out portal', async () => {
    allow = false;
    const input = { app: 'Orders', record: '1', fields: { Quantity: '99' } };
    const start = await mark();
    const prepared = await tools.prepare(TOOL_NAMES.updateRecord, input);
    assert.equal(prepared.confirmation, undefined);
    assert.match(
      await tools.invoke(TOOL_NAMES.updateRecord, input),
      /turned off\. The user can turn them on with the setting "portal\.agent\.allowChanges"; nothing was sent\./,
    );
    portals = [{ id: 'emulator', label: 'Emulator', state: 'expired' }];
    assert.match(
      await tools.invoke(TOOL_NAMES.readRecord, { app: 'Orders', record: '1' }),
      /sign-in has expired\. The user must sign in first with the command "Portal: Sign In"/,
    );
    assert.deepEqual(await since(start), []);
  });

  it('offers the user to sign in once per portal when a tool refuses for the sign-in, whatever the tool', async () => {
    const session = new PortalTools(host); // a session of its own: offers are counted per session
    portals = [
      { id: 'emulator', label: 'Emulator', state: 'signedOut' },
      { id: 'staging', label: 'Staging', state: 'expired' },
    ];
    assert.match(
      await session.invoke(TOOL_NAMES.readRecord, { portal: 'Emulator', app: 'Orders', record: '1' }),
      /it is signed out\. The user must sign in first with the command "Portal: Sign In"/,
    );
    assert.deepEqual(offered, ['emulator']);
    const update = { portal: 'emulator', app: 'Orders', record: '1', fields: { Quantity: '2' } };
    await session.prepare(TOOL_NAMES.updateRecord, update);
    assert.match(await session.invoke(TOOL_NAMES.updateRecord, update), /it is signed out/);
    await session.invoke(TOOL_NAMES.describeApp, { portal: 'emulator', app: 'Orders' });
    assert.deepEqual(offered, ['emulator'], 'once for the portal');
    await session.invoke(TOOL_NAMES.queryView, { portal: 'staging', app: 'Orders', view: '3' });
    assert.deepEqual(offered, ['emulator', 'staging'], 'once for each portal');
    assert.match(await session.invoke(TOOL_NAMES.describeApp, { app: 'Orders' }), /^Several portals are connected/);
    assert.deepEqual(offered, ['emulator', 'staging'], 'no offer when the refusal is not about signing in');
  });

  it('answers a sign-in the portal no longer accepts with the sign-in command, offers to sign in, and never a token', async () => {
    const signedIn = client;
    const tokens = new CredentialsTokens(emulator, 'give-up');
    client = clientFor(emulator, { tokens }).client;
    const session = new PortalTools(host); // a session of its own: offers are counted per session
    try {
      const read = await session.invoke(TOOL_NAMES.readRecord, { app: 'Orders', record: '1' });
      assert.match(read, /^Record 1 of Orders/);
      await testInterface(emulator, 'POST', 'tokens/expire', {});
      const answer = await session.invoke(TOOL_NAMES.readRecord, { app: 'Orders', record: '1' });
      assert.equal(
        answer,
        'The sign-in to "Emulator" is no longer accepted: the user must sign in again with the command "Portal: Sign In" (portal.signIn).',
      );
      assert.deepEqual(offered, ['emulator'], 'the user is offered to sign in');
      assert.ok(tokens.issued.length > 0);
      for (const token of tokens.issued) assert.ok(!read.includes(token) && !answer.includes(token), 'no token in an answer');
    } finally {
      client = signedIn;
    }
  });
  it('shows in each confirmation, as a person reads its Markdown, exactly the text that is sent', async () => {
    const tricks = ['[Approved](https://e)', 'ok<!-- rest -->', '**all** `fine` &amp; <b>x</b>', '```\nclosed early\n```'];
    for (const trick of tricks) {
      const updating = await tools.prepare(TOOL_NAMES.updateRecord, { app: 'Orders', record: '2', fields: { Title: trick } });
      const shownUpdate = readableText(updating.confirmation?.message ?? '');
      assert.ok(shownUpdate.includes(`→ ${JSON.stringify(trick)}`), `update of ${JSON.stringify(trick)} reads:\n${shownUpdate}`);
      const creating = await tools.prepare(TOOL_NAMES.createRecord, {
        app: 'Orders',
        fields: { Title: trick, 'Order date': '05-02-2026', Amount: '1' },
      });
      const shownCreate = readableText(creating.confirmation?.message ?? '');
      assert.ok(
        shownCreate.includes(`- f11 (Title): ${JSON.stringify(trick)}`),
        `create with ${JSON.stringify(trick)} reads:\n${shownCreate}`,
      );
      const comment = `Looks good.\n${trick}\nThanks`;
      const commenting = await tools.prepare(TOOL_NAMES.addComment, { app: 'Orders', record: '2', comment });
      const shownComment = readableText(commenting.confirmation?.message ?? '');
      assert.ok(shownComment.includes(comment), `comment with ${JSON.stringify(trick)} reads:\n${shownComment}`);
    }
    const reordering = { app: 'Orders', record: '2', comment: 'Paid invoice\u202Efdp.exe' };
    const refused = await tools.prepare(TOOL_NAMES.addComment, reordering);
    assert.equal(refused.confirmation, undefined, 'a comment that reads reordered is not offered for confirmation');
    assert.match(await tools.invoke(TOOL_NAMES.addComment, reordering), /^The comment holds invisible characters that reorder the text/);
  });
});
