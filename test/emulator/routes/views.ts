// Read records by view (portal-api.md endpoint 8).
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context';
import { notFound } from '../errors';
import { parseFilters, ViewCache, viewBody } from '../views';
import type { AppParams } from './common';
import { appOr404 } from './common';

export function registerViews(api: FastifyInstance, ctx: Context): void {
  const cache = new ViewCache();
  api.get<{ Params: AppParams & { view_id: string } }>('/api/v1/app/:app_id/view/:view_id', async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    const view = ctx.store.view(app, request.params.view_id);
    if (!view) throw notFound(`No view ${request.params.view_id} in app ${app.def.app_id}.`);
    const filters = parseFilters(ctx.store, app, request.query);
    const body = filters.length === 0 ? cache.get(ctx.store, app, view) : viewBody(ctx.store, app, view, filters);
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
