// Create, read, update and delete (to trash) records, and add comments (portal-api.md endpoints 4-7 and 9).
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context';
import { ApiError, badRequest } from '../errors';
import { formParams } from '../formBody';
import { KIND_TYPES } from '../model';
import type { StoredRecord } from '../model';
import type { AppState } from '../store';
import { readWrite } from '../writes';
import type { AppParams, RecordParams } from './common';
import { appOr404, liveRecordOr404, sendJson, sendWriteResult, writableRecordOr404 } from './common';

function paramsOf(body: ReturnType<typeof formParams>): Map<string, string> {
  if (!body.ok) throw badRequest('invalid_request', body.problem, body.field);
  return body.params;
}

function readResponse(ctx: Context, app: AppState, record: Readonly<StoredRecord>): unknown {
  return {
    data: ctx.store.data(app, record),
    metadata: app.def.columns.map((column, index) => ({
      app_id: app.def.app_id,
      field_id: column.field_id,
      field_name: column.name,
      field_description: column.description ?? '',
      type: KIND_TYPES[column.kind].code,
      type_name: KIND_TYPES[column.kind].name,
      position: String(index + 1),
      required: column.required ? '1' : '0',
    })),
    id: String(record.num),
    draft: record.draft ? '1' : '0',
  };
}

export function registerRecords(api: FastifyInstance, ctx: Context): void {
  api.post<{ Params: AppParams }>('/api/v1/app/:app_id/record/', async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    const input = readWrite(app, paramsOf(formParams(request)));
    const now = new Date().toISOString();
    const record = app.records.add((num) => ({
      num,
      draft: app.draftMode && input.draft === '1',
      trashed: false,
      data: { ...ctx.store.autoNumbers(app.def, num), ...input.values },
      comments: [],
      attachments: [],
      created_at: now,
      updated_at: now,
    }));
    ctx.store.touch(record);
    const data = ctx.store.data(app, record);
    ctx.emit(request, { event: 'record.created', app_id: app.def.app_id, record_id: String(record.num), data });
    return sendJson(reply, { ...data, id: String(record.num) });
  });

  api.get<{ Params: RecordParams }>('/api/v1/app/:app_id/record/:record_id', async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    return sendJson(reply, readResponse(ctx, app, liveRecordOr404(app, request.params.record_id)));
  });

  api.put<{ Params: RecordParams }>('/api/v1/app/:app_id/record/:record_id', async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    const current = liveRecordOr404(app, request.params.record_id);
    const params = paramsOf(formParams(request));
    if (params.size === 0) throw badRequest('invalid_request', 'Nothing to update: send at least one field or draft.');
    const input = readWrite(app, params, current);
    const record = writableRecordOr404(app, request.params.record_id);
    Object.assign(record.data, input.values);
    // Draft -> Published only; Published -> Draft is not a documented transition, so draft "1" is ignored.
    if (app.draftMode && input.draft === '0') record.draft = false;
    ctx.store.touch(record);
    ctx.emit(request, {
      event: 'record.updated',
      app_id: app.def.app_id,
      record_id: String(record.num),
      data: ctx.store.data(app, record),
    });
    return sendWriteResult(ctx, reply);
  });

  api.delete<{ Params: RecordParams }>('/api/v1/app/:app_id/record/:record_id', async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    const record = writableRecordOr404(app, request.params.record_id);
    const data = ctx.store.data(app, record);
    record.trashed = true;
    ctx.store.touch(record);
    ctx.emit(request, { event: 'record.deleted', app_id: app.def.app_id, record_id: String(record.num), data });
    return sendJson(reply, { deleted: { id: String(record.num), deleted: '1' } });
  });

  api.post<{ Params: RecordParams }>('/api/v1/app/:app_id/record/:record_id/comment', async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    if (!app.commentsPlugin)
      throw new ApiError(403, 'comments_disabled', `The comments plugin is not enabled for app ${app.def.app_id} (${app.def.name}).`);
    liveRecordOr404(app, request.params.record_id);
    const params = paramsOf(formParams(request));
    const unknown = [...params.keys()].find((name) => name !== 'comment');
    if (unknown) throw badRequest('unknown_field', `${unknown} is not a parameter of add comment; send comment.`, unknown);
    const text = params.get('comment') ?? '';
    if (text.trim() === '') throw badRequest('missing_required_field', 'comment is required and cannot be empty.', 'comment');
    const record = writableRecordOr404(app, request.params.record_id);
    const comment = { id: ctx.store.childId(), text, created_at: new Date().toISOString() };
    record.comments.push(comment);
    ctx.store.touch(record, false);
    ctx.emit(request, {
      event: 'comment.created',
      app_id: app.def.app_id,
      record_id: String(record.num),
      data: ctx.store.data(app, record),
      comment: { id: comment.id, comment: comment.text, created_at: comment.created_at },
    });
    return sendWriteResult(ctx, reply);
  });
}
