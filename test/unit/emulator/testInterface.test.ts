import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import type { LoggedRequest } from '../../emulator/requestLog';
import { call, clientToken, form, nestedError, useSeededEmulator } from './helpers';

describe('emulator: test interface', () => {
  const running = useSeededEmulator();

  const sites = () => call(running.emulator, 'GET', '/api/v1/site', { token: running.token });
  const fault = async (body: Record<string, unknown>) => {
    const result = await call(running.emulator, 'POST', '/_emulator/faults', { body });
    assert.equal(result.status, 200, result.text);
  };
  const requests = async (since = 0) => (await call(running.emulator, 'GET', `/_emulator/requests?since=${since}`)).json as LoggedRequest[];

  describe('reset', () => {
    it('restores the seed and forgets faults, requests and other clients with their tokens', async () => {
      await call(running.emulator, 'PUT', '/api/v1/app/101/record/1', { token: running.token, body: form({ f2: 'Changed' }) });
      await call(running.emulator, 'POST', '/_emulator/clients', {
        body: { client_id: 'extra', client_secret: 'pw', redirect_uris: ['http://127.0.0.1/cb'] },
      });
      const extraToken = (
        (
          await call(running.emulator, 'POST', '/api/v1/oauth2/token', {
            body: form({ grant_type: 'client_credentials', client_id: 'extra', client_secret: 'pw' }),
          })
        ).json as { access_token: string }
      ).access_token;
      await fault({ status: 500, path: '^/never' });
      await call(running.emulator, 'POST', '/_emulator/reset');
      assert.deepEqual(await requests(), []);
      assert.deepEqual((await call(running.emulator, 'GET', '/_emulator/faults')).json, []);
      const clients = (await call(running.emulator, 'GET', '/_emulator/clients')).json as Array<{ client_id: string }>;
      assert.deepEqual(
        clients.map((c) => c.client_id),
        [running.emulator.clientId],
      );
      assert.equal(
        (await call(running.emulator, 'GET', '/api/v1/site', { token: extraToken })).status,
        401,
        "a forgotten client's token goes",
      );
      assert.equal((await sites()).status, 200, "the demo client's token stays: a signed-in extension stays signed in");
      const raw = (await call(running.emulator, 'GET', '/_emulator/records/101/1')).json as { data: Record<string, string> };
      assert.equal(raw.data.f2, 'Acme Corporation');
    });
  });

  describe('clients', () => {
    it('registers a client that can then get tokens and authorize', async () => {
      const created = await call(running.emulator, 'POST', '/_emulator/clients', { body: { redirect_uris: ['http://127.0.0.1/cb'] } });
      const { client_id, client_secret } = created.json as { client_id: string; client_secret: string };
      assert.ok(client_id && client_secret);
      const token = await call(running.emulator, 'POST', '/api/v1/oauth2/token', {
        body: form({ grant_type: 'client_credentials', client_id, client_secret }),
      });
      assert.equal(token.status, 200);
      const page = await call(running.emulator, 'GET', `/api/v1/oauth2/authorize?client_id=${client_id}&response_type=code&state=s`);
      assert.match(page.text, /http:\/\/127\.0\.0\.1\/cb/, 'the registered call-back URL is used');
    });

    it('keeps a chosen id and secret, and refuses bad registrations', async () => {
      const created = await call(running.emulator, 'POST', '/_emulator/clients', {
        body: { client_id: 'mine', client_secret: 'pw', redirect_uris: ['vscode://x/y'] },
      });
      assert.deepEqual(created.json, { client_id: 'mine', client_secret: 'pw' });
      assert.equal((await call(running.emulator, 'POST', '/_emulator/clients', { body: { redirect_uris: [] } })).status, 400);
      assert.equal((await call(running.emulator, 'POST', '/_emulator/clients', { body: { redirect_uris: ['not a uri'] } })).status, 400);
    });
  });

  describe('faults', () => {
    it('adds latency, then answers normally', async () => {
      await fault({ latency_ms: 300 });
      const started = Date.now();
      assert.equal((await sites()).status, 200);
      assert.ok(Date.now() - started >= 290);
      const logged = (await requests()).at(-1);
      assert.equal(logged?.fault, 'latency');
    });

    it('answers a status code with an error body, for the next N requests only', async () => {
      await fault({ status: 503, count: 2 });
      const first = await sites();
      assert.equal(first.status, 503);
      assert.equal(nestedError(first).code, 'injected_fault');
      assert.equal((await sites()).status, 503);
      assert.equal((await sites()).status, 200);
    });

    it('answers a status with the given body and headers', async () => {
      await fault({ status: 429, body: { error: 'slow down' }, headers: { 'Retry-After': '2' } });
      const result = await sites();
      assert.equal(result.status, 429);
      assert.deepEqual(result.json, { error: 'slow down' });
      assert.equal(result.headers.get('retry-after'), '2');
    });

    it('drops the connection without an answer', async () => {
      await fault({ drop: true });
      await assert.rejects(sites());
      const logged = (await requests()).at(-1);
      assert.deepEqual([logged?.path, logged?.status, logged?.fault], ['/api/v1/site', 0, 'drop']);
      assert.equal((await requests()).filter((entry) => entry.fault === 'drop').length, 1, 'logged once');
      assert.equal((await sites()).status, 200);
    });

    it('applies a request and then loses its answer (lose_answer)', async () => {
      await fault({ path: '/record/$', method: 'POST', lose_answer: true });
      await assert.rejects(
        call(running.emulator, 'POST', '/api/v1/app/101/record/', { token: running.token, body: form({ f2: 'Lost answer Ltd' }) }),
      );
      const logged = (await requests()).at(-1);
      assert.deepEqual([logged?.path, logged?.status, logged?.fault], ['/api/v1/app/101/record/', 0, 'lose_answer']);
      // The record exists although its creator never heard of it: the next one gets the next id.
      const created = await call(running.emulator, 'POST', '/api/v1/app/101/record/', {
        token: running.token,
        body: form({ f2: 'Heard Ltd' }),
      });
      assert.equal(created.status, 200);
      const lost = await call(running.emulator, 'GET', `/_emulator/records/101/${Number((created.json as { id: string }).id) - 1}`);
      assert.equal((lost.json as { data: Record<string, string> }).data.f2, 'Lost answer Ltd');
    });

    it('answers 200 with a malformed JSON body', async () => {
      await fault({ malformed: true });
      const result = await sites();
      assert.equal(result.status, 200);
      assert.match(result.headers.get('content-type') ?? '', /application\/json/);
      assert.throws(() => JSON.parse(result.text));
    });

    it('hits only requests matching the path pattern and method; count -1 lasts until cleared', async () => {
      await fault({ path: '/view/', method: 'GET', status: 500, count: -1 });
      assert.equal((await sites()).status, 200);
      assert.equal((await call(running.emulator, 'GET', '/api/v1/app/102/view/3', { token: running.token })).status, 500);
      assert.equal((await call(running.emulator, 'GET', '/api/v1/app/102/view/3', { token: running.token })).status, 500);
      await call(running.emulator, 'DELETE', '/_emulator/faults');
      assert.equal((await call(running.emulator, 'GET', '/api/v1/app/102/view/3', { token: running.token })).status, 200);
    });

    it('applies latency and status together', async () => {
      await fault({ latency_ms: 100, status: 502 });
      const started = Date.now();
      assert.equal((await sites()).status, 502);
      assert.ok(Date.now() - started >= 90);
    });

    it('refuses a fault it cannot apply', async () => {
      for (const body of [
        {},
        { path: '(' },
        { status: 99 },
        { drop: true, status: 500 },
        { lose_answer: true, drop: true },
        { lose_answer: 'yes' },
        { count: 0, status: 500 },
        { wat: 1, status: 500 },
      ]) {
        assert.equal((await call(running.emulator, 'POST', '/_emulator/faults', { body })).status, 400, JSON.stringify(body));
      }
    });

    it('never touches the test interface', async () => {
      await fault({ status: 500, count: -1 });
      assert.equal((await call(running.emulator, 'GET', '/_emulator/faults')).status, 200);
    });
  });

  describe('request log', () => {
    it('lists method, path, query and status of API requests in order, not test-interface ones', async () => {
      await call(running.emulator, 'DELETE', '/_emulator/requests');
      await sites();
      await call(running.emulator, 'GET', '/api/v1/app/102/view/3?filter_columns=11&filter_operators=4', { token: running.token });
      await call(running.emulator, 'GET', '/api/v1/app/999/columns', { token: running.token });
      await call(running.emulator, 'GET', '/_emulator/config');
      const logged = await requests();
      assert.deepEqual(
        logged.map(({ method, path, query, status }) => [method, path, query, status]),
        [
          ['GET', '/api/v1/site', '', 200],
          ['GET', '/api/v1/app/102/view/3', 'filter_columns=11&filter_operators=4', 200],
          ['GET', '/api/v1/app/999/columns', '', 404],
        ],
      );
      assert.deepEqual(
        (await requests(logged[1].seq)).map((entry) => entry.path),
        ['/api/v1/app/999/columns'],
      );
    });

    it('logs OAuth requests', async () => {
      await call(running.emulator, 'DELETE', '/_emulator/requests');
      await clientToken(running.emulator);
      const [logged] = await requests();
      assert.deepEqual([logged.method, logged.path, logged.status], ['POST', '/api/v1/oauth2/token', 200]);
    });
  });

  describe('tokens, records, settings, config', () => {
    it('expires every access token at once', async () => {
      assert.equal((await sites()).status, 200);
      await call(running.emulator, 'POST', '/_emulator/tokens/expire');
      const expired = await sites();
      assert.equal(expired.status, 401);
      assert.equal(nestedError(expired).message, 'The access token expired.');
    });

    it('shows the raw stored record, in trash too', async () => {
      await call(running.emulator, 'DELETE', '/api/v1/app/102/record/7', { token: running.token });
      const raw = (await call(running.emulator, 'GET', '/_emulator/records/102/7')).json as Record<string, unknown>;
      assert.equal(raw.draft, true);
      assert.equal(raw.trashed, true);
      assert.deepEqual(raw.comments, []);
      assert.equal((await call(running.emulator, 'GET', '/_emulator/records/102/999')).status, 404);
    });

    it('switches Draft mode and the comments plugin per app', async () => {
      const changed = await call(running.emulator, 'POST', '/_emulator/apps/202/settings', {
        body: { comments_plugin: true, draft_mode: true },
      });
      assert.deepEqual(changed.json, { app_id: '202', draft_mode: true, comments_plugin: true });
      assert.equal(
        (
          await call(running.emulator, 'POST', '/api/v1/app/202/record/1/comment', {
            token: running.token,
            body: form({ comment: 'now on' }),
          })
        ).status,
        200,
      );
      await call(running.emulator, 'POST', '/_emulator/apps/102/settings', { body: { draft_mode: false } });
      const created = (
        await call(running.emulator, 'POST', '/api/v1/app/102/record/', {
          token: running.token,
          body: form({ f11: 'x', f15: '01-01-2026', f17: '1', draft: '1' }),
        })
      ).json as { id: string };
      const raw = (await call(running.emulator, 'GET', `/_emulator/records/102/${created.id}`)).json as { draft: boolean };
      assert.equal(raw.draft, false);
      assert.equal((await call(running.emulator, 'POST', '/_emulator/apps/102/settings', { body: { draft_mode: 'yes' } })).status, 400);
    });

    it("shows each app's Draft mode and comments plugin in the list of sites, unless told not to", async () => {
      const appsOf = async () =>
        (
          (await call(running.emulator, 'GET', '/api/v1/site', { token: running.token })).json as Array<{
            apps: Array<Record<string, string>>;
          }>
        ).flatMap((site) => site.apps);
      const before = await appsOf();
      assert.deepEqual(
        before.find((app) => app.app_id === '102'),
        { app_id: '102', name: 'Orders', draft_mode: '1', comments_plugin: '1' },
      );
      assert.equal(before.find((app) => app.app_id === '202')?.comments_plugin, '0');
      await call(running.emulator, 'POST', '/_emulator/apps/202/settings', { body: { comments_plugin: true } });
      assert.equal((await appsOf()).find((app) => app.app_id === '202')?.comments_plugin, '1');
      await call(running.emulator, 'POST', '/_emulator/config', { body: { appFlags: false } });
      assert.deepEqual(Object.keys((await appsOf())[0] ?? {}), ['app_id', 'name']);
    });

    it('switches the error style', async () => {
      await call(running.emulator, 'POST', '/_emulator/config', { body: { errorStyle: 'flat' } });
      const flat = await call(running.emulator, 'PUT', '/api/v1/app/101/record/1', {
        token: running.token,
        body: form({ f9: '31-02-2026' }),
      });
      assert.equal(flat.status, 400);
      assert.deepEqual(Object.keys(flat.json as object), ['error', 'error_description']);
      assert.equal((flat.json as { error: string }).error, 'invalid_value');
      assert.match((flat.json as { error_description: string }).error_description, /^f9 /);
      await call(running.emulator, 'POST', '/_emulator/config', { body: { errorStyle: 'text' } });
      const text = await call(running.emulator, 'PUT', '/api/v1/app/101/record/1', {
        token: running.token,
        body: form({ f9: '31-02-2026' }),
      });
      assert.match(text.headers.get('content-type') ?? '', /text\/plain/);
      assert.match(text.text, /^f9 \(Customer since\)/);
    });

    it('switches what writes answer', async () => {
      await call(running.emulator, 'POST', '/_emulator/config', { body: { writeResponse: 'empty' } });
      const empty = await call(running.emulator, 'PUT', '/api/v1/app/101/record/1', { token: running.token, body: form({ f4: '1' }) });
      assert.deepEqual([empty.status, empty.text], [204, '']);
      await call(running.emulator, 'POST', '/_emulator/config', { body: { writeResponse: 'text' } });
      const text = await call(running.emulator, 'POST', '/api/v1/app/101/record/1/comment', {
        token: running.token,
        body: form({ comment: 'c' }),
      });
      assert.deepEqual([text.status, text.text], [200, 'OK']);
    });

    it('leaves required out of the columns when asked', async () => {
      const columns = async () =>
        (await call(running.emulator, 'GET', '/api/v1/app/101/columns', { token: running.token })).json as Column[];
      assert.equal((await columns())[1].required, '1');
      await call(running.emulator, 'POST', '/_emulator/config', { body: { columnRequired: false } });
      assert.equal('required' in (await columns())[1], false);
    });

    it('refuses unknown, start-only and badly typed options, and shows the config', async () => {
      for (const body of [{ nope: true }, { port: 1 }, { errorStyle: 'loud' }, { tokenLifetimeSeconds: -1 }]) {
        assert.equal((await call(running.emulator, 'POST', '/_emulator/config', { body })).status, 400, JSON.stringify(body));
      }
      const config = (await call(running.emulator, 'GET', '/_emulator/config')).json as Record<string, unknown>;
      assert.equal(config.tokenLifetimeSeconds, 3600);
      assert.equal(config.errorStyle, 'nested');
    });

    it('restores the startup options on reset', async () => {
      await call(running.emulator, 'POST', '/_emulator/config', { body: { errorStyle: 'text' } });
      await call(running.emulator, 'POST', '/_emulator/reset');
      const config = (await call(running.emulator, 'GET', '/_emulator/config')).json as Record<string, unknown>;
      assert.equal(config.errorStyle, 'nested');
    });

    it('answers the startup information', async () => {
      const info = (await call(running.emulator, 'GET', '/_emulator/info')).json as Record<string, unknown>;
      assert.equal(info.base_url, running.emulator.baseUrl);
      assert.deepEqual(info.views, running.emulator.views);
    });
  });
});
