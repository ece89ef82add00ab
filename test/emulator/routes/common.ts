// Lookups and answers shared by the data routes.
import type { FastifyReply } from 'fastify';
import type { Context } from '../context';
import { notFound } from '../errors';
import type { StoredRecord } from '../model';
import type { AppState } from '../store';
import { recordNum } from '../store';

export interface AppParams {
  app_id: string;
}

export interface RecordParams extends AppParams {
  record_id: string;
}

export function appOr404(ctx: Context, appId: string): AppState {
  const app = ctx.store.app(appId);
  if (!app) throw notFound(`No app ${appId}.`);
  return app;
}

/** The record unless it does not exist or is in trash. */
export function liveRecordOr404(app: AppState, recordId: string): Readonly<StoredRecord> {
  const num = recordNum(recordId);
  const record = num === undefined ? undefined : app.records.peek(num);
  if (!record || record.trashed)
    throw notFound(`No record ${recordId} in app ${app.def.app_id}${record?.trashed ? ' (it is in trash)' : ''}.`);
  return record;
}

/** The record to change; 404 like liveRecordOr404. */
export function writableRecordOr404(app: AppState, recordId: string): StoredRecord {
  liveRecordOr404(app, recordId);
  const record = app.records.forWrite(Number(recordId));
  if (!record) throw notFound(`No record ${recordId} in app ${app.def.app_id}.`);
  return record;
}

/** What update, comment and attachment answer, per --write-response. */
export function sendWriteResult(ctx: Context, reply: FastifyReply): FastifyReply {
  switch (ctx.config.writeResponse) {
    case 'empty':
      return reply.code(204).send();
    case 'text':
      return reply.type('text/plain; charset=utf-8').send('OK');
    case 'json':
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ success: '1' }));
  }
}

export function sendJson(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
}
