// Reading form-encoded bodies: the portal takes form parameters only, one value per name.
import type { FastifyRequest } from 'fastify';

export type FormBodyResult = { ok: true; params: Map<string, string> } | { ok: false; problem: string; field?: string };

export function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}

/** Whether the request says it carries a body (multipart bodies are not parsed up front, so look at headers). */
function announcesBody(request: FastifyRequest): boolean {
  return Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
}

/** The body's parameters in order; an empty body is no parameters. */
export function formParams(request: FastifyRequest): FormBodyResult {
  if (!announcesBody(request)) return { ok: true, params: new Map() };
  if (!isForm(request))
    return { ok: false, problem: 'Send the body as form parameters (Content-Type: application/x-www-form-urlencoded).' };
  if (request.body === undefined || request.body === null) return { ok: true, params: new Map() };
  const params = new Map<string, string>();
  for (const [name, value] of Object.entries(request.body as Record<string, unknown>)) {
    if (typeof value !== 'string') return { ok: false, problem: `Parameter ${name} is given more than once.`, field: name };
    params.set(name, value);
  }
  return { ok: true, params };
}

/** A query parameter as a string; `repeated` builds the error for one given more than once. */
export function queryParam(query: unknown, name: string, repeated: (name: string) => Error): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw repeated(name);
  return String(value);
}
