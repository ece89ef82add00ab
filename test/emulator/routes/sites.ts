// List sites with their apps and list an app's columns (portal-api.md endpoints 12 and 13).
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context';
import type { ColumnDef } from '../model';
import { fieldKey, KIND_TYPES } from '../model';
import type { AppParams } from './common';
import { appOr404, sendJson } from './common';

const CHOICE_TYPES = { '0': 'single_select_dropdown', '1': 'single_select_radio_button', '2': 'multi_select_checkbox' };
const DISPLAY_FORMATS = { '0': 'One Per Line', '1': 'Next to each other', '2': 'Cards', '3': 'Slider', '4': 'Star Rating' };

export function columnJson(appId: string, column: ColumnDef, position: number, withRequired: boolean): Record<string, unknown> {
  const json: Record<string, unknown> = {
    app_id: appId,
    field_id: column.field_id,
    field_id_in_data: fieldKey(column.field_id),
    field_name: column.name,
    field_description: column.description ?? '',
    type: KIND_TYPES[column.kind].code,
    type_name: KIND_TYPES[column.kind].name,
    position: String(position),
    unique_value: column.unique ? '1' : '0',
  };
  if (withRequired) json.required = column.required ? '1' : '0';
  if (column.kind === 'choice') {
    Object.assign(json, {
      default_value: column.defaultValue ?? '',
      choice_type: column.choiceType ?? '0',
      choice_types: CHOICE_TYPES,
      display_format: column.displayFormat ?? '0',
      display_formats: DISPLAY_FORMATS,
      choices: (column.choices ?? []).map((choice, index) => ({
        id: choice.id,
        name: choice.name,
        color: choice.color,
        order: String(index + 1),
      })),
    });
  }
  if (column.kind === 'currency') json.currency_symbol = column.currencySymbol ?? '';
  if (column.kind === 'lookup')
    Object.assign(json, { lookup_app_id: column.lookupAppId ?? '', lookup_field_id: column.lookupFieldId ?? '' });
  return json;
}

/** An app of the list of sites; the two flags are undocumented (README: "Chosen where ... not shown"). */
function appJson(ctx: Context, appId: string, name: string): Record<string, string> {
  const app = ctx.store.app(appId);
  if (!ctx.config.appFlags || !app) return { app_id: appId, name };
  return { app_id: appId, name, draft_mode: app.draftMode ? '1' : '0', comments_plugin: app.commentsPlugin ? '1' : '0' };
}

export function registerSites(api: FastifyInstance, ctx: Context): void {
  api.get('/api/v1/site', async (_request, reply) =>
    sendJson(
      reply,
      ctx.store.sites.map((site) => ({
        id: site.id,
        name: site.name,
        manager: site.manager,
        apps: site.apps.map((app) => appJson(ctx, app.app_id, app.name)),
      })),
    ),
  );

  api.get<{ Params: AppParams }>('/api/v1/app/:app_id/columns', async (request, reply) => {
    const app = appOr404(ctx, request.params.app_id);
    return sendJson(
      reply,
      app.def.columns.map((column, index) => columnJson(app.def.app_id, column, index + 1, ctx.config.columnRequired)),
    );
  });
}
