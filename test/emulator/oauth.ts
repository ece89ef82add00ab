// OAuth 2.0 endpoints: the authorize page (GET, and POST for its Approve / Deny form) and the token endpoint
// with the authorization_code, client_credentials and refresh_token grants (README.md, "OAuth 2.0").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { approvalPage, refusalPage } from './authorizePage';
import type { Client } from './clients';
import { isRegisteredRedirect } from './clients';
import type { Context } from './context';
import { OAuthError, sendOAuthError } from './errors';
import { formParams, queryParam } from './formBody';
import type { AuthorizationRequest, TokenResponse } from './oauthState';

const AUTHORIZE = '/api/v1/oauth2/authorize';
const TOKEN = '/api/v1/oauth2/token';
/** How long an approval page can be answered (independent of the code lifetime, which may be 0 in tests). */
const APPROVAL_LIFETIME_SECONDS = 600;
const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** A refused authorization request: answered with a 400 page, never a redirect. */
class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function refuse(reply: FastifyReply, refusal: Refusal): FastifyReply {
  return reply.code(400).type('text/html; charset=utf-8').send(refusalPage(refusal.code, refusal.message));
}

function redirectWith(reply: FastifyReply, redirectUri: string, params: Record<string, string>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return reply.header('Cache-Control', 'no-store').redirect(url.toString(), 302);
}

/** Checks an authorization request; throws a Refusal naming what is wrong. */
function readAuthorizationRequest(ctx: Context, query: unknown): { client: Client; request: AuthorizationRequest } {
  const param = (name: string): string | undefined =>
    queryParam(query, name, (n) => new Refusal('invalid_request', `${n} is given more than once.`));
  const clientId = param('client_id');
  if (!clientId) throw new Refusal('invalid_request', 'client_id is missing.');
  const client = ctx.oauth.clients.get(clientId);
  if (!client) throw new Refusal('unauthorized_client', `No client application is registered with client_id ${clientId}.`);
  const given = param('redirect_uri');
  if (given !== undefined && !isRegisteredRedirect(client, given))
    throw new Refusal('invalid_request', `redirect_uri ${given} is not registered for this client.`);
  const redirectUri = given ?? client.redirect_uris[0];
  if (!redirectUri)
    throw new Refusal('invalid_request', 'The client has no registered call-back URL and the request names no redirect_uri.');
  const responseType = param('response_type');
  if (responseType === undefined) throw new Refusal('invalid_request', 'response_type is missing; it must be code.');
  if (responseType !== 'code')
    throw new Refusal('unsupported_response_type', `response_type ${responseType} is not supported; it must be code.`);
  const state = param('state');
  if (!state) throw new Refusal('invalid_request', 'state is missing; send a random string and check it on return.');
  const challenge = param('code_challenge');
  const method = param('code_challenge_method');
  if (challenge === undefined && method !== undefined)
    throw new Refusal('invalid_request', 'code_challenge_method without code_challenge.');
  if (method !== undefined && method !== 'S256' && method !== 'plain')
    throw new Refusal('invalid_request', `code_challenge_method ${method} is not supported; use S256 or plain.`);
  if (challenge !== undefined && !CHALLENGE.test(challenge))
    throw new Refusal('invalid_request', 'code_challenge must be 43-128 characters of A-Z a-z 0-9 - . _ ~.');
  return {
    client,
    request: {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      redirectGiven: given !== undefined,
      state,
      ...(challenge !== undefined ? { codeChallenge: challenge, codeChallengeMethod: method === 'S256' ? 'S256' : 'plain' } : {}),
    },
  };
}

/** Client authentication: HTTP Basic, or client_id and client_secret form parameters, or both if they agree. */
function authenticateClient(ctx: Context, request: FastifyRequest, params: Map<string, string>): Client {
  let basic: { id: string; secret: string } | undefined;
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'The Authorization header must be Basic base64(client_id:client_secret).');
    try {
      basic = { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
    } catch {
      throw new OAuthError('invalid_client', 'The Basic credentials are not well encoded.');
    }
  }
  const formId = params.get('client_id');
  const formSecret = params.get('client_secret');
  if (basic && ((formId !== undefined && formId !== basic.id) || (formSecret !== undefined && formSecret !== basic.secret))) {
    throw new OAuthError('invalid_request', 'The Basic credentials and the client_id/client_secret parameters disagree.');
  }
  const id = basic?.id ?? formId;
  const secret = basic?.secret ?? formSecret;
  if (id === undefined || secret === undefined)
    throw new OAuthError('invalid_client', 'Authenticate the client: HTTP Basic, or client_id and client_secret parameters.');
  return ctx.oauth.authenticateClient(id, secret);
}

function token(ctx: Context, request: FastifyRequest): TokenResponse {
  const body = formParams(request);
  if (!body.ok) throw new OAuthError('invalid_request', body.problem);
  const params = body.params;
  const grantType = params.get('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is missing.');
  const known = ['authorization_code', 'client_credentials', 'refresh_token'];
  if (!known.includes(grantType))
    throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported; use ${known.join(', ')}.`);
  const client = authenticateClient(ctx, request, params);
  const lifetime = ctx.config.tokenLifetimeSeconds;
  if (grantType === 'client_credentials') return ctx.oauth.clientCredentials(client, lifetime);
  if (grantType === 'refresh_token') {
    const refreshToken = params.get('refresh_token');
    if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is missing.');
    return ctx.oauth.refresh(client, refreshToken, lifetime);
  }
  const code = params.get('code');
  if (!code) throw new OAuthError('invalid_request', 'code is missing.');
  return ctx.oauth.exchangeCode(client, code, params.get('code_verifier'), params.get('redirect_uri'), lifetime);
}

export function registerOAuth(app: FastifyInstance, ctx: Context): void {
  app.get(AUTHORIZE, async (request, reply) => {
    let checked;
    try {
      checked = readAuthorizationRequest(ctx, request.query);
    } catch (error) {
      if (error instanceof Refusal) return refuse(reply, error);
      throw error;
    }
    const { client, request: authorization } = checked;
    if (ctx.config.autoApprove) {
      const code = ctx.oauth.issueCode(authorization, ctx.config.codeLifetimeSeconds);
      return redirectWith(reply, authorization.redirect_uri, { code, state: authorization.state });
    }
    const requestId = ctx.oauth.awaitApproval(authorization, APPROVAL_LIFETIME_SECONDS);
    return reply
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(approvalPage(client.name, authorization.redirect_uri, requestId));
  });

  app.post(AUTHORIZE, async (request, reply) => {
    const body = formParams(request);
    if (!body.ok) return refuse(reply, new Refusal('invalid_request', body.problem));
    const decision = body.params.get('decision');
    if (decision !== 'approve' && decision !== 'deny')
      return refuse(reply, new Refusal('invalid_request', 'decision must be approve or deny.'));
    const pending = ctx.oauth.takePending(body.params.get('request_id') ?? '');
    if (!pending)
      return refuse(reply, new Refusal('invalid_request', 'This approval form is unknown, was already answered or expired; start again.'));
    if (decision === 'approve') {
      const code = ctx.oauth.issueCode(pending, ctx.config.codeLifetimeSeconds);
      return redirectWith(reply, pending.redirect_uri, { code, state: pending.state });
    }
    return redirectWith(reply, pending.redirect_uri, {
      error: 'access_denied',
      error_description: 'The user denied access.',
      state: pending.state,
    });
  });

  app.post(TOKEN, async (request, reply) => {
    try {
      const response = token(ctx, request);
      return reply
        .header('Cache-Control', 'no-store')
        .header('Pragma', 'no-cache')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(response));
    } catch (error) {
      if (error instanceof OAuthError) return sendOAuthError(reply, error);
      throw error;
    }
  });
}
