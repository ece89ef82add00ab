// Add an attachment (multipart, part attachment_file) and download a record's first attachment
// (portal-api.md endpoints 10 and 11).
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context';
import { ApiError, badRequest } from '../errors';
import type { StoredAttachment } from '../model';
import type { RecordParams } from './common';
import { appOr404, liveRecordOr404, sendWriteResult, writableRecordOr404 } from './common';

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266, RFC 8187). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const isTooLarge = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE';

export function registerAttachments(api: FastifyInstance, ctx: Context): void {
  const path = '/api/v1/app/:app_id/record/:record_id/attachment';

  api.post<{ Params: RecordParams }>(path, async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    liveRecordOr404(app, request.params.record_id);
    if (!request.isMultipart())
      throw badRequest('invalid_request', 'Send the attachment as multipart/form-data with the file in part attachment_file.');
    const limit = ctx.config.attachmentLimitBytes;
    let upload: Omit<StoredAttachment, 'id' | 'created_at'> | undefined;
    try {
      for await (const part of request.parts({ limits: { fileSize: limit } })) {
        if (part.type === 'file') {
          if (part.fieldname !== 'attachment_file' || upload) {
            part.file.resume();
            throw badRequest(
              upload ? 'invalid_request' : 'unknown_field',
              upload
                ? 'Send one attachment_file per request.'
                : `${part.fieldname} is not a parameter of add attachment; send attachment_file.`,
              part.fieldname,
            );
          }
          const bytes = await part.toBuffer();
          upload = {
            file_name: part.filename || 'attachment',
            content_type: part.mimetype || 'application/octet-stream',
            size: bytes.length,
            bytes,
          };
        } else if (part.fieldname === 'attachment_file') {
          throw badRequest(
            'invalid_request',
            'attachment_file must be a file upload (a part with a filename), not a plain field.',
            'attachment_file',
          );
        } else {
          throw badRequest(
            'unknown_field',
            `${part.fieldname} is not a parameter of add attachment; send attachment_file.`,
            part.fieldname,
          );
        }
      }
    } catch (error) {
      if (isTooLarge(error))
        throw new ApiError(413, 'too_large', `The attachment is larger than the limit of ${limit} bytes.`, 'attachment_file');
      throw error;
    }
    if (!upload) throw badRequest('missing_required_field', 'attachment_file is required.', 'attachment_file');
    const record = writableRecordOr404(app, request.params.record_id);
    const attachment: StoredAttachment = { id: ctx.store.childId(), created_at: new Date().toISOString(), ...upload };
    record.attachments.push(attachment);
    ctx.store.touch(record, false);
    const { bytes: _bytes, ...meta } = attachment;
    ctx.emit(request, {
      event: 'attachment.created',
      app_id: app.def.app_id,
      record_id: String(record.num),
      data: ctx.store.data(app, record),
      attachment: meta,
    });
    return sendWriteResult(ctx, reply);
  });

  api.get<{ Params: RecordParams }>(path, async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    const record = liveRecordOr404(app, request.params.record_id);
    const first = record.attachments[0];
    if (!first) throw new ApiError(404, 'no_attachment', `Record ${record.num} of app ${app.def.app_id} has no attachment.`);
    return reply
      .type(first.content_type)
      .header('Content-Disposition', contentDisposition(first.file_name))
      .header('Content-Length', String(first.size))
      .send(first.bytes);
  });
}
