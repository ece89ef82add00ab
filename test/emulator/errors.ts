// Errors of the data endpoints (README.md, "Errors of data endpoints") in the three styles of --error-style,
// and OAuth's own {"error", "error_description"}, which no option changes.
import type { FastifyReply } from 'fastify';
import type { ErrorStyle } from './options';

export type ApiErrorCode =
  | 'invalid_value'
  | 'unknown_field'
  | 'read_only_field'
  | 'missing_required_field'
  | 'duplicate_value'
  | 'invalid_filter'
  | 'rate_limited'
  | 'too_many_requests'
  | 'invalid_request'
  | 'invalid_token'
  | 'comments_disabled'
  | 'not_found'
  | 'no_attachment'
  | 'too_large'
  | 'injected_fault'
  | 'server_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const badRequest = (code: ApiErrorCode, message: string, field?: string): ApiError => new ApiError(400, code, message, field);
export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);

/** The body of a data-endpoint error in the given style. */
export function errorBody(style: ErrorStyle, code: string, message: string, field?: string): { type: string; body: string } {
  if (style === 'text') return { type: 'text/plain; charset=utf-8', body: message };
  const body =
    style === 'flat'
      ? { error: code, error_description: message }
      : { error: field === undefined ? { code, message } : { code, message, field } };
  return { type: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

export function sendApiError(reply: FastifyReply, style: ErrorStyle, error: ApiError): FastifyReply {
  if (error.code === 'invalid_token')
    reply.header('WWW-Authenticate', `Bearer error="invalid_token", error_description="${error.message}"`);
  const { type, body } = errorBody(style, error.code, error.message, error.field);
  return reply.code(error.status).type(type).send(body);
}

export type OAuthErrorCode =
  'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'unsupported_response_type';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return this.code === 'invalid_client' ? 401 : 400;
  }
}

export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.status === 401) reply.header('WWW-Authenticate', 'Basic realm="portal"');
  return reply
    .code(error.status)
    .header('Cache-Control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: error.code, error_description: error.message }));
}
