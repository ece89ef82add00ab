// The test interface under /_emulator/ (not part of the portal's API; README.md, "Test interface"): reset,
// client applications, webhooks and their deliveries, faults, the request log, token expiry, raw records,
// app settings and runtime options. JSON in, JSON out.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { callbackPage } from '../authorizePage';
import { redirectUriProblem } from '../clients';
import type { Context } from '../context';
import { FaultError } from '../faults';
import { OptionError, patchRuntimeConfig } from '../options';
import { recordNum } from '../store';
import { startInfo } from '../startInfo';
import { WebhookError } from '../webhooks';

type Json = Record<string, unknown>;

class TestInterfaceError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The JSON object of a request; an absent body is {}. */
function jsonBody(body: unknown): Json {
  if (body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0)) return {};
  if (typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body))
    throw new TestInterfaceError(400, 'Send a JSON object (Content-Type: application/json).');
  return body as Json;
}

function fail(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof TestInterfaceError) return reply.code(error.status).send({ error: error.message });
  if (error instanceof FaultError || error instanceof OptionError || error instanceof WebhookError)
    return reply.code(400).send({ error: error.message });
  throw error;
}

function registerClient(ctx: Context, body: Json): { client_id: string; client_secret: string } {
  const { client_id: id, client_secret: secret, name, redirect_uris: uris } = body;
  if (id !== undefined && (typeof id !== 'string' || id === '')) throw new TestInterfaceError(400, 'client_id must be a non-empty string.');
  if (secret !== undefined && (typeof secret !== 'string' || secret === ''))
    throw new TestInterfaceError(400, 'client_secret must be a non-empty string.');
  if (name !== undefined && typeof name !== 'string') throw new TestInterfaceError(400, 'name must be a string.');
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === 'string'))
    throw new TestInterfaceError(400, 'redirect_uris must be a non-empty list of URIs.');
  const problem = (uris as string[]).map(redirectUriProblem).find(Boolean);
  if (problem) throw new TestInterfaceError(400, problem);
  const client = {
    client_id: (id as string | undefined) ?? `client-${randomBytes(6).toString('hex')}`,
    client_secret: (secret as string | undefined) ?? randomBytes(18).toString('base64url'),
    name: (name as string | undefined) ?? 'Test client',
    redirect_uris: uris as string[],
  };
  ctx.oauth.clients.set(client.client_id, client);
  return { client_id: client.client_id, client_secret: client.client_secret };
}

function settings(ctx: Context, appId: string, body: Json): Json {
  const app = ctx.store.app(appId);
  if (!app) throw new TestInterfaceError(404, `No app ${appId}.`);
  const unknown = Object.keys(body).find((key) => key !== 'draft_mode' && key !== 'comments_plugin');
  if (unknown) throw new TestInterfaceError(400, `Unknown setting ${unknown}; settings: draft_mode, comments_plugin.`);
  for (const key of ['draft_mode', 'comments_plugin'] as const) {
    if (body[key] !== undefined && typeof body[key] !== 'boolean') throw new TestInterfaceError(400, `${key} must be true or false.`);
  }
  if (typeof body.draft_mode === 'boolean') app.draftMode = body.draft_mode;
  if (typeof body.comments_plugin === 'boolean') app.commentsPlugin = body.comments_plugin;
  return { app_id: appId, draft_mode: app.draftMode, comments_plugin: app.commentsPlugin };
}

function rawRecord(ctx: Context, appId: string, recordId: string): Json {
  const app = ctx.store.app(appId);
  const num = recordNum(recordId);
  const record = app && num !== undefined ? app.records.peek(num) : undefined;
  if (!app || !record) throw new TestInterfaceError(404, `No record ${recordId} in app ${appId}.`);
  return {
    app_id: appId,
    id: String(record.num),
    draft: record.draft,
    trashed: record.trashed,
    data: ctx.store.data(app, record),
    comments: record.comments.map(({ id, text, created_at }) => ({ id, comment: text, created_at })),
    attachments: record.attachments.map(({ id, file_name, content_type, size, created_at }) => ({
      id,
      file_name,
      content_type,
      size,
      created_at,
    })),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function registerTestInterface(app: FastifyInstance, ctx: Context): void {
  const route = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    handle: (body: Json, params: Record<string, string>, query: Record<string, string>) => unknown,
  ) =>
    app.route({
      method,
      url: `/_emulator${url}`,
      handler: async (request, reply) => {
        try {
          const result = handle(
            method === 'POST' ? jsonBody(request.body) : {},
            request.params as Record<string, string>,
            request.query as Record<string, string>,
          );
          return reply.send(result);
        } catch (error) {
          return fail(reply, error);
        }
      },
    });

  route('GET', '/info', () => startInfo(ctx));
  route('POST', '/reset', () => {
    ctx.reset();
    return { reset: true };
  });

  route('GET', '/clients', () =>
    [...ctx.oauth.clients.values()].map(({ client_id, name, redirect_uris }) => ({ client_id, name, redirect_uris })),
  );
  route('POST', '/clients', (body) => registerClient(ctx, body));

  route('GET', '/webhooks', () => ctx.webhooks.list());
  route('POST', '/webhooks', (body) => ({ id: ctx.webhooks.register(body, (appId) => ctx.store.app(appId) !== undefined).id }));
  route('DELETE', '/webhooks/:id', (_body, params) => {
    if (!ctx.webhooks.remove(params.id)) throw new TestInterfaceError(404, `No webhook ${params.id}.`);
    return { deleted: params.id };
  });
  route('GET', '/deliveries', () => ctx.webhooks.deliveries());
  route('DELETE', '/deliveries', () => {
    ctx.webhooks.clearDeliveries();
    return { cleared: true };
  });

  route('GET', '/faults', () => ctx.faults.list());
  route('POST', '/faults', (body) => ctx.faults.add(body));
  route('DELETE', '/faults', () => {
    ctx.faults.clear();
    return { cleared: true };
  });

  route('GET', '/requests', (_body, _params, query) => {
    const since = query.since === undefined ? 0 : Number(query.since);
    if (!Number.isInteger(since) || since < 0) throw new TestInterfaceError(400, 'since must be a sequence number >= 0.');
    return ctx.requests.since(since);
  });
  route('DELETE', '/requests', () => {
    ctx.requests.clear();
    return { cleared: true };
  });

  route('POST', '/tokens/expire', (body) => {
    if (body.refresh_tokens !== undefined && typeof body.refresh_tokens !== 'boolean')
      throw new TestInterfaceError(400, 'refresh_tokens must be true or false.');
    return { expired: ctx.oauth.expireTokens(body.refresh_tokens === true) };
  });

  route('GET', '/records/:app_id/:record_id', (_body, params) => rawRecord(ctx, params.app_id, params.record_id));
  route('GET', '/apps', () =>
    ctx.store.allApps().map((app) => ({
      app_id: app.def.app_id,
      name: app.def.name,
      site_id: app.site.id,
      draft_mode: app.draftMode,
      comments_plugin: app.commentsPlugin,
    })),
  );
  route('POST', '/apps/:app_id/settings', (body, params) => settings(ctx, params.app_id, body));

  route('GET', '/config', () => ctx.config);
  route('POST', '/config', (body) => {
    ctx.config = patchRuntimeConfig(ctx.config, body);
    ctx.store.setBigViewRecords(ctx.config.bigViewRecords);
    return ctx.config;
  });

  app.get('/_emulator/callback', async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send(callbackPage(Object.fromEntries(Object.entries(request.query as Record<string, unknown>).map(([k, v]) => [k, String(v)])))),
  );
}
