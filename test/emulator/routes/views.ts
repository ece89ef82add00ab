// Read records by view (portal-api.md endpoint 8): small views from a cache, big ones streamed.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context';
import { notFound } from '../errors';
import { parseFilters, STREAM_ABOVE_RECORDS, ViewCache, viewBody, viewPieces } from '../views';
import type { AppParams } from './common';
import { appOr404 } from './common';

export function registerViews(api: FastifyInstance, ctx: Context): void {
  const cache = new ViewCache();
  api.get<{ Params: AppParams & { view_id: string } }>('/api/v1/app/:app_id/view/:view_id', async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    const view = ctx.store.view(app, request.params.view_id);
    if (!view) throw notFound(`No view ${request.params.view_id} in app ${app.def.app_id}.`);
    const filters = parseFilters(ctx.store, app, request.query);
    reply.type('application/json; charset=utf-8');
    // A big app's view is generated as it is sent (no Content-Length, chunked): nothing holds it whole.
    if (app.records.count > STREAM_ABOVE_RECORDS)
      return reply.send(Readable.from(viewPieces(ctx.store, app, view, filters), { objectMode: false }));
    return reply.send(filters.length === 0 ? cache.get(ctx.store, app, view) : viewBody(ctx.store, app, view, filters));
  });
}
