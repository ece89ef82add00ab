// The portal client: one typed method per data endpoint of portal-api.md. Every call carries the access
// token, a time limit and the caller's AbortSignal; a 401 renews the token once and retries once; every
// failure is a PortalError. Reading the answers tolerantly is answers.ts's job.
import {
  acceptDeleteResponse,
  acceptWriteResponse,
  columnsOf,
  createdOf,
  recordOf,
  sitesOf,
  viewOfResponse,
  type CreatedRecord,
  type RecordRead,
  type ViewRead,
} from './answers';
import {
  countingStream,
  encodeAttachment,
  fileNameOf,
  type AttachmentOptions,
  type AttachmentUpload,
  type DownloadedAttachment,
} from './attachments';
import { fieldNamedIn, withField } from './errorBody';
import { PortalError, isCancellation, isPortalError } from './errors';
import type { RequestGate, RequestPermit } from './gate';
import { filterQuery, type ViewFilter } from './filters';
import {
  DEFAULT_TIMEOUT_MS,
  httpError,
  isSuccess,
  parseJsonBody,
  retryAfterMs,
  send,
  type FetchLike,
  type HttpMethod,
  type HttpResponse,
  type RequestBody,
  type RequestLogEntry,
} from './http';
import type { Column, RecordData, Site } from './types';
import { apiAddress, apiPrefix, portalBase } from './urls';
import { ViewStreamReader, type ViewStreamOptions, type ViewStreamResult } from './viewStream';

export type { CreatedRecord, RecordRead, ViewRead, ViewRow } from './answers';
export type { ViewBatch, ViewStreamOptions, ViewStreamResult } from './viewStream';
export type { RowStore } from './rowStore';
export type { AttachmentOptions, AttachmentUpload, DownloadedAttachment } from './attachments';
export { fileNameOf } from './attachments';

/** Where the client gets its access token; the auth layer implements it (refresh, SecretStorage, sign-in). */
export interface AccessTokenSource {
  accessToken(signal?: AbortSignal): Promise<string>;
  /** Called once after a 401; returns a new token, or undefined when the user must sign in again. */
  renewAfterUnauthorized(rejected: string, signal?: AbortSignal): Promise<string | undefined>;
}

export interface PortalClientOptions {
  baseUrl: string;
  tokens: AccessTokenSource;
  fetch?: FetchLike;
  /** Per request, body included; default 30000. */
  timeoutMs?: number;
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * The most of an answer read whole, decompressed (http.ts's default unless given); asked at each call,
   * so a changed setting counts at once. A streamed view read keeps to its own bounds (viewStream.ts).
   */
  maxAnswerBytes?: () => number;
  /** The user confirmed plain http:// for this portal; without it such a base URL is refused (urls.ts, portalBase). */
  allowPlainHttp?: boolean;
  /**
   * What every request passes first: the portal's limiter (records/limiter.ts), shared by every client of
   * the portal, which holds requests while the portal asked to wait and bounds how many are in flight.
   */
  gate?: RequestGate;
}

interface Call {
  method: HttpMethod;
  segments: string[];
  query?: Array<[string, string]>;
  /** Built per attempt: a retried upload needs a fresh stream. */
  body?: () => { body: RequestBody; headers: Record<string, string> } | Promise<{ body: RequestBody; headers: Record<string, string> }>;
  action: string;
  /** Error codes to use when the portal's error body has none (e.g. 404 on download = no_attachment). */
  defaultCodes?: Partial<Record<number, string>>;
  /** Keys sent in the body, to name the field of a 400 whose body does not. */
  sentFields?: readonly string[];
  /** Instead of the client's time limit. */
  timeoutMs?: number;
  /** Reads a 2xx body as it arrives (http.ts); the call then resolves once it is read. */
  readBody?: (body: AsyncIterable<Uint8Array | string>) => Promise<void>;
}

/** Answers smaller than this time a round trip to the portal rather than a transfer. */
const SMALL_ANSWER_BYTES = 16 * 1024;
/** Round trips remembered: the shortest of the last few is the portal's distance without the queueing of a busy moment. */
const ROUND_TRIPS_KEPT = 5;

function form(fields: RecordData): { body: string; headers: Record<string, string> } {
  // Appended key by key: the same text as URLSearchParams(fields), whose reading of an object takes a
  // property descriptor per key and costs half as much again (a form per record an import creates).
  const params = new URLSearchParams();
  for (const key of Object.keys(fields)) params.append(key, fields[key]);
  return { body: params.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
}

/** What a token source's failure means for the call: cancelled, or not signed in. */
function tokenFailure(action: string, error: unknown): PortalError {
  if (error instanceof PortalError) return error;
  if (isCancellation(error)) return new PortalError({ kind: 'cancelled', message: `${action} was cancelled.`, cause: error });
  return new PortalError({
    kind: 'http',
    status: 401,
    code: 'unauthorized',
    message: `${action} failed: not signed in to the portal${error instanceof Error && error.message ? ` (${error.message})` : ''}.`,
    cause: error,
  });
}

export class PortalClient {
  private readonly base: URL;
  /** "…/api/v1/" of the base, computed once: every request's address starts with it. */
  private readonly prefix: string;
  private readonly tokens: AccessTokenSource;
  private readonly fetch: FetchLike | undefined;
  private readonly timeoutMs: number;
  private readonly onRequest: ((entry: RequestLogEntry) => void) | undefined;
  private readonly maxAnswerBytes: (() => number) | undefined;
  private readonly roundTrips: number[] = [];
  private readonly gate: RequestGate | undefined;

  constructor(options: PortalClientOptions) {
    this.gate = options.gate;
    this.base = portalBase(options.baseUrl, options.allowPlainHttp);
    this.prefix = apiPrefix(this.base);
    this.tokens = options.tokens;
    this.fetch = options.fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.onRequest = options.onRequest;
    this.maxAnswerBytes = options.maxAnswerBytes;
  }

  /** The normalised base URL (no trailing slash, no /api/v1). */
  get baseUrl(): string {
    return this.base.href.replace(/\/$/, '');
  }

  /**
   * The shortest time a request with a small answer took lately (ms, of the last few): about one round
   * trip to the portal. Undefined before the first. The grid's save weighs a GET per row with it.
   */
  get roundTripMs(): number | undefined {
    return this.roundTrips.length === 0 ? undefined : Math.min(...this.roundTrips);
  }

  // ------------------------------------------------------------------------------------------------------
  // Endpoints

  async listSites(signal?: AbortSignal): Promise<Site[]> {
    const action = 'Listing the sites';
    const body = parseJsonBody(await this.call({ method: 'GET', segments: ['site'], action }, signal), action);
    return sitesOf(body, action);
  }

  async listColumns(appId: string, signal?: AbortSignal): Promise<Column[]> {
    const action = `Listing the columns of app ${appId}`;
    const body = parseJsonBody(await this.call({ method: 'GET', segments: ['app', appId, 'columns'], action }, signal), action);
    return columnsOf(body, appId, action);
  }

  async readRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<RecordRead> {
    const action = `Reading record ${recordId} of app ${appId}`;
    const body = parseJsonBody(await this.call({ method: 'GET', segments: ['app', appId, 'record', recordId], action }, signal), action);
    return recordOf(body, recordId, action);
  }

  async createRecord(appId: string, data: RecordData, options: { draft?: boolean } = {}, signal?: AbortSignal): Promise<CreatedRecord> {
    const action = `Creating a record in app ${appId}`;
    const fields = options.draft ? { ...data, draft: '1' } : data;
    const response = await this.call(
      { method: 'POST', segments: ['app', appId, 'record', ''], body: () => form(fields), action, sentFields: Object.keys(data) },
      signal,
    );
    const body = parseJsonBody(response, action);
    return createdOf(body, action);
  }

  /** Sends only `changes`; `publish` also sends draft "0" (publishes a Draft record). */
  async updateRecord(
    appId: string,
    recordId: string,
    changes: RecordData,
    options: { publish?: boolean } = {},
    signal?: AbortSignal,
  ): Promise<void> {
    const action = `Updating record ${recordId} of app ${appId}`;
    const fields = options.publish ? { ...changes, draft: '0' } : changes;
    const response = await this.call(
      { method: 'PUT', segments: ['app', appId, 'record', recordId], body: () => form(fields), action, sentFields: Object.keys(changes) },
      signal,
    );
    acceptWriteResponse(response, action);
  }

  async publishRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<void> {
    const action = `Publishing record ${recordId} of app ${appId}`;
    const response = await this.call(
      { method: 'PUT', segments: ['app', appId, 'record', recordId], body: () => form({ draft: '0' }), action },
      signal,
    );
    acceptWriteResponse(response, action);
  }

  /** Moves the record to trash. */
  async deleteRecord(appId: string, recordId: string, signal?: AbortSignal): Promise<void> {
    const action = `Deleting record ${recordId} of app ${appId}`;
    const response = await this.call({ method: 'DELETE', segments: ['app', appId, 'record', recordId], action }, signal);
    acceptDeleteResponse(response, action);
  }

  async readView(appId: string, viewId: string, filters: readonly ViewFilter[] = [], signal?: AbortSignal): Promise<ViewRead> {
    const action = `Reading view ${viewId} of app ${appId}`;
    return viewOfResponse(await this.call(this.viewCall(appId, viewId, filters, action), signal), action);
  }

  /**
   * Reads a view as its body arrives into a compact store of rows (rowStore.ts), handing over batches
   * while the rest is still coming (viewStream.ts). Resolves with the store, how many rows were read and,
   * when the answer broke off midway, the failure (the rows before it were handed over); rejects when
   * nothing was read, and when cancelled. `options.stop` ends it early keeping what arrived (`stopped`).
   */
  async streamView(
    appId: string,
    viewId: string,
    filters: readonly ViewFilter[],
    options: ViewStreamOptions = {},
  ): Promise<ViewStreamResult> {
    const action = `Reading view ${viewId} of app ${appId}`;
    const reader = new ViewStreamReader(action, options);
    const { signal, stop } = options;
    // A stop closes the connection as an abort does; what follows tells the two apart.
    const ended = stop ? (signal ? AbortSignal.any([signal, stop]) : stop) : signal;
    try {
      await this.call({ ...this.viewCall(appId, viewId, filters, action), readBody: (body) => reader.read(body) }, ended);
    } catch (error) {
      if (stop?.aborted && !signal?.aborted) return reader.stoppedResult();
      if (isCancellation(error) || reader.rowsRead === 0) {
        reader.rows.release();
        throw error;
      }
      return reader.result(error instanceof PortalError ? error : undefined);
    }
    return reader.result();
  }

  /** The view's answer as received (JSON bytes), e.g. to hand to a webview without parsing it here. */
  async readViewRaw(appId: string, viewId: string, filters: readonly ViewFilter[] = [], signal?: AbortSignal): Promise<Uint8Array> {
    const action = `Reading view ${viewId} of app ${appId}`;
    const response = await this.call(this.viewCall(appId, viewId, filters, action), signal);
    return response.body;
  }

  async addComment(appId: string, recordId: string, comment: string, signal?: AbortSignal): Promise<void> {
    const action = `Adding a comment to record ${recordId} of app ${appId}`;
    const response = await this.call(
      {
        method: 'POST',
        segments: ['app', appId, 'record', recordId, 'comment'],
        body: () => form({ comment }),
        action,
        defaultCodes: { 403: 'comments_disabled' },
      },
      signal,
    );
    acceptWriteResponse(response, action);
  }

  async addAttachment(
    appId: string,
    recordId: string,
    file: AttachmentUpload,
    options: AttachmentOptions = {},
    signal?: AbortSignal,
  ): Promise<void> {
    const action = `Adding the attachment ${file.fileName} to record ${recordId} of app ${appId}`;
    const encoded = await encodeAttachment(file);
    const response = await this.call(
      {
        method: 'POST',
        segments: ['app', appId, 'record', recordId, 'attachment'],
        body: () => {
          options.onProgress?.(0, encoded.bytes.length);
          const body = options.onProgress ? countingStream(encoded.bytes, options.onProgress) : encoded.bytes;
          return { body, headers: { 'Content-Type': encoded.contentType, 'Content-Length': String(encoded.bytes.length) } };
        },
        action,
        timeoutMs: options.timeoutMs,
      },
      signal,
    );
    acceptWriteResponse(response, action);
  }

  /**
   * The record's first attachment. No attachment: PortalError status 404, code 'no_attachment'.
   * `options.timeoutMs` replaces the client's time limit (body included) for this download.
   */
  async downloadAttachment(
    appId: string,
    recordId: string,
    signal?: AbortSignal,
    options: { timeoutMs?: number } = {},
  ): Promise<DownloadedAttachment> {
    const action = `Downloading the attachment of record ${recordId} of app ${appId}`;
    const response = await this.call(
      {
        method: 'GET',
        segments: ['app', appId, 'record', recordId, 'attachment'],
        action,
        defaultCodes: { 404: 'no_attachment' },
        timeoutMs: options.timeoutMs,
      },
      signal,
    );
    return {
      fileName: fileNameOf(response.headers.get('content-disposition')),
      contentType: response.headers.get('content-type') ?? undefined,
      content: response.body,
    };
  }

  // ------------------------------------------------------------------------------------------------------
  // The request core

  private viewCall(appId: string, viewId: string, filters: readonly ViewFilter[], action: string): Call {
    return { method: 'GET', segments: ['app', appId, 'view', viewId], query: filterQuery(filters), action };
  }

  private noteRoundTrip(ms: number): void {
    this.roundTrips.push(ms);
    if (this.roundTrips.length > ROUND_TRIPS_KEPT) this.roundTrips.shift();
  }

  /** One call with the 401 protocol: renew once, retry once, then 'unauthorized'. Resolves only for 2xx. */
  private async call(call: Call, signal: AbortSignal | undefined): Promise<HttpResponse> {
    // The token source is awaited here rather than in a helper, and a body built at once is not awaited:
    // each async layer and await allocates per request, and the collections it costs showed in profiles.
    let token: string;
    try {
      token = (await this.tokens.accessToken(signal)) ?? '';
    } catch (error) {
      throw tokenFailure(call.action, error);
    }
    const used: string[] = [token];
    for (let attempt = 1; ; attempt += 1) {
      const built = call.body?.();
      const body = built instanceof Promise ? await built : built;
      const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      if (body) Object.assign(headers, body.headers);
      let permit: RequestPermit | undefined;
      if (this.gate) {
        const granted = this.gate.acquire(signal);
        try {
          permit = granted instanceof Promise ? await granted : granted;
        } catch (error) {
          // The gate rejects only when the caller's signal aborts.
          throw error instanceof PortalError
            ? error
            : new PortalError({ kind: 'cancelled', message: `${call.action} was cancelled.`, cause: error });
        }
      }
      const started = performance.now();
      // A streamed answer gives its place back once its head has come: the portal has done its part, and
      // the body's transfer (minutes for a large view on a slow line) must not hold up other requests.
      let released = false;
      const release = (outcome: Parameters<RequestPermit['release']>[0]): void => {
        if (released) return;
        released = true;
        permit?.release(outcome);
      };
      const readBody = call.readBody;
      const streamed = readBody && ((bodyStream: AsyncIterable<Uint8Array | string>) => (release({ status: 200 }), readBody(bodyStream)));
      let response: HttpResponse;
      try {
        response = await send({
          method: call.method,
          url: apiAddress(this.prefix, call.segments, call.query),
          headers,
          body: body?.body,
          signal,
          timeoutMs: call.timeoutMs ?? this.timeoutMs,
          fetch: this.fetch,
          action: call.action,
          onRequest: this.onRequest,
          readBody: streamed,
          maxAnswerBytes: this.maxAnswerBytes?.(),
        });
      } catch (error) {
        release({ status: isPortalError(error) && error.kind === 'http' ? error.status : undefined });
        throw error;
      }
      const roundTripMs = !call.readBody && response.body.length < SMALL_ANSWER_BYTES ? performance.now() - started : undefined;
      release({
        status: response.status,
        retryAfterMs: response.status === 429 || response.status === 503 ? retryAfterMs(response.headers.get('retry-after')) : undefined,
        roundTripMs,
      });
      if (isSuccess(response.status)) {
        if (roundTripMs !== undefined) this.noteRoundTrip(roundTripMs);
        return response;
      }
      if (response.status === 401 && attempt === 1) {
        let renewed: string | undefined;
        try {
          renewed = await this.tokens.renewAfterUnauthorized(token, signal);
        } catch (error) {
          throw tokenFailure(call.action, error);
        }
        if (renewed !== undefined) {
          token = renewed;
          used.push(renewed);
          continue;
        }
      }
      const error = httpError(response, {
        action: call.action,
        secrets: used,
        defaultCodes: call.defaultCodes,
        code: response.status === 401 ? 'unauthorized' : undefined,
      });
      const field =
        error.field === undefined && response.status === 400 ? fieldNamedIn(error.portalMessage, call.sentFields ?? []) : undefined;
      throw field === undefined ? error : withField(error, field);
    }
  }
}
