// The emulator's HTTP server: fastify with the form-body and multipart plugins, the hooks that inject faults,
// log requests and send webhook events after responses, one error handler for every route, and the routes.
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from './context';
import { ApiError, OAuthError, sendApiError, sendOAuthError } from './errors';
import { needsPacing, pacedBody } from './pacing';
import type { LoggedRequest } from './requestLog';
import { splitUrl } from './requestLog';
import { registerOAuth } from './oauth';
import { registerAttachments } from './routes/attachments';
import { registerRecords } from './routes/records';
import { registerSites } from './routes/sites';
import { registerTestInterface } from './routes/testInterface';
import { registerViews } from './routes/views';

const TEST_PREFIX = '/_emulator/';
const isTestInterface = (url: string): boolean => url.startsWith(TEST_PREFIX) || url === '/_emulator';
/** The requests --rate-limit and --max-in-flight count: the data API, not OAuth. */
const isLimited = (url: string): boolean => url.startsWith('/api/') && !url.startsWith('/api/v1/oauth2/');

/** What a malformed-body fault answers: JSON cut off in the middle. */
const MALFORMED_BODY = '{"data": [{"id": "1", "f1": "trunc';

// Unref'd: a latency fault still waiting must not keep a closed emulator's process alive.
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Maps fastify's own errors (bad JSON, body too large, bad content type) to the emulator's. */
function asApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  const status = error.statusCode ?? 500;
  if (status === 413) return new ApiError(413, 'too_large', 'The request body is too large.');
  if (status >= 400 && status < 500) return new ApiError(400, 'invalid_request', error.message);
  return new ApiError(500, 'server_error', 'The emulator failed on this request.');
}

export async function buildServer(ctx: Context): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 10 * 1024 * 1024, return503OnClosing: true });
  await app.register(formbody);
  await app.register(multipart, { throwFileSizeLimit: true });
  // Any other body is kept raw, so the routes answer a clear 400 instead of fastify's 415.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const faultOf = new WeakMap<FastifyRequest, LoggedRequest['fault']>();
  const dropAfter = new WeakMap<FastifyRequest, number>();
  const logged = new WeakSet<FastifyRequest>();
  const answerLost = new WeakSet<FastifyRequest>();
  const answerDelay = new WeakMap<FastifyRequest, number>();
  const logRequest = (request: FastifyRequest, status: number, elapsed: number): void => {
    if (logged.has(request) || isTestInterface(request.url)) return;
    logged.add(request);
    const { path, query } = splitUrl(request.url);
    const fault = faultOf.get(request);
    ctx.requests.add({ method: request.method, path, query, status, duration_ms: Math.round(elapsed), ...(fault ? { fault } : {}) });
    ctx.print(
      `${request.method} ${path} ${status === 0 ? 'dropped' : status} ${Math.round(elapsed)} ms${fault ? ` (fault: ${fault})` : ''}`,
    );
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isTestInterface(request.url)) return;
    // A portal that limits each client: only its data API (signing in is not counted), decided on arrival;
    // a request is in flight from then to the end of its answer, the distance included.
    const admission =
      isLimited(request.url) && (ctx.config.rateLimit > 0 || ctx.config.maxInFlight > 0)
        ? ctx.admissions.admit(ctx.clientOf(request), ctx.config)
        : undefined;
    if (admission?.admitted) reply.raw.once('close', admission.release);
    // The distance to the portal: every answer's first byte waits this long.
    if (ctx.config.latencyMs > 0) await sleep(ctx.config.latencyMs);
    if (admission) {
      if (!admission.admitted) {
        faultOf.set(request, admission.why === 'rate' ? 'rate_limit' : 'max_in_flight');
        reply.header('Retry-After', String(admission.retryAfterSeconds));
        const message =
          admission.why === 'rate'
            ? `Rate limit of ${ctx.config.rateLimit} requests per second exceeded.`
            : `More than ${ctx.config.maxInFlight} requests at once.`;
        return sendApiError(
          reply,
          ctx.config.errorStyle,
          new ApiError(admission.status, admission.why === 'rate' ? 'rate_limited' : 'too_many_requests', message),
        );
      }
    }
    const fault = ctx.faults.take(request.method, splitUrl(request.url).path);
    if (!fault) return;
    faultOf.set(
      request,
      fault.drop
        ? 'drop'
        : fault.drop_after_bytes !== undefined
          ? 'drop-midway'
          : fault.malformed
            ? 'malformed'
            : fault.status !== undefined
              ? 'status'
              : fault.lose_answer
                ? 'lose_answer'
                : fault.answer_delay_ms !== undefined
                  ? 'answer_delay'
                  : 'latency',
    );
    if (fault.answer_delay_ms !== undefined) answerDelay.set(request, fault.answer_delay_ms);
    if (fault.drop_after_bytes !== undefined) dropAfter.set(request, fault.drop_after_bytes);
    if (fault.latency_ms) await sleep(fault.latency_ms);
    if (fault.lose_answer) answerLost.add(request);
    if (fault.drop) {
      logRequest(request, 0, reply.elapsedTime);
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (fault.malformed) return reply.code(200).type('application/json; charset=utf-8').send(MALFORMED_BODY);
    if (fault.status !== undefined) {
      for (const [name, value] of Object.entries(fault.headers ?? {})) reply.header(name, value);
      if (fault.body === undefined)
        return sendApiError(
          reply,
          ctx.config.errorStyle,
          new ApiError(fault.status, 'injected_fault', `Injected fault: status ${fault.status}.`),
        );
      if (typeof fault.body === 'string') return reply.code(fault.status).type('text/plain; charset=utf-8').send(fault.body);
      return reply.code(fault.status).type('application/json; charset=utf-8').send(JSON.stringify(fault.body));
    }
    return undefined;
  });

  // An answer held back: the route has done its work (read the record as it was then); the answer leaves
  // later, overtaken by answers to requests that came after it.
  app.addHook('onSend', async (request, _reply, payload) => {
    const delay = answerDelay.get(request);
    if (delay) await sleep(delay);
    return payload;
  });

  // A lost answer: the route has done its work (a record created, changed or trashed); the client sees the
  // connection drop, as when a proxy or the network fails after the portal committed.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!answerLost.has(request)) return payload;
    logRequest(request, 0, reply.elapsedTime);
    ctx.flushEvents(request);
    request.raw.socket.destroy();
    return payload;
  });

  // A slow link or a connection dropped midway: the body leaves as a paced stream (pacing.ts).
  app.addHook('onSend', async (request, reply, payload) => {
    if (isTestInterface(request.url) || answerLost.has(request)) return payload;
    const pacing = {
      bytesPerSecond: ctx.config.bytesPerSecond,
      dropAfterBytes: dropAfter.get(request),
      onDrop: () => logRequest(request, reply.statusCode, reply.elapsedTime),
    };
    if (!needsPacing(pacing)) return payload;
    if (pacing.dropAfterBytes !== undefined) reply.removeHeader('content-length');
    return pacedBody(payload, pacing);
  });

  app.addHook('onResponse', async (request, reply) => {
    logRequest(request, reply.statusCode, reply.elapsedTime);
    ctx.flushEvents(request);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    if (isTestInterface(request.url)) {
      return reply.code(error.statusCode && error.statusCode < 500 ? error.statusCode : 500).send({ error: error.message });
    }
    const apiError = asApiError(error);
    if (apiError.status >= 500) ctx.print(`error on ${request.method} ${splitUrl(request.url).path}: ${error.stack ?? error.message}`);
    return sendApiError(reply, ctx.config.errorStyle, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const { path } = splitUrl(request.url);
    if (isTestInterface(request.url)) return reply.code(404).send({ error: `No test-interface route ${request.method} ${path}.` });
    return sendApiError(reply, ctx.config.errorStyle, new ApiError(404, 'not_found', `No such endpoint: ${request.method} ${path}.`));
  });

  registerOAuth(app, ctx);
  await app.register(async (api) => {
    api.addHook('onRequest', async (request) => ctx.requireToken(request));
    registerSites(api, ctx);
    registerRecords(api, ctx);
    registerViews(api, ctx);
    registerAttachments(api, ctx);
  });
  registerTestInterface(app, ctx);
  return app;
}
