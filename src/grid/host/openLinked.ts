// Enter on a LookUp cell of the grid: the record it links to opens as a document. The record is looked
// for by the value the cell shows, through the views of the linked app added in the Portal view (the API
// reads records only through a view; src/grid/model/linkedRecord.ts says why), or a view id asked for when none
// is added. Several records showing the same value: the person picks one.
import { cancelled } from '../../api/errors';
import type { ViewRow } from '../../api/answers';
import { linkedFilter, linkedLookup, linkedRows } from '../model/linkedRecord';
import { prompter } from '../../ui/prompter';
import { openRecord } from '../../webviews/openRecord';
import type { GridDocument, GridDeps } from './gridDocument';

export async function openLinkedRecord(deps: GridDeps, document: GridDocument, recordId: string, field: string): Promise<void> {
  const { portalId } = document.target;
  const model = document.model;
  const column = model.appColumn(field);
  const source = column && typeof column.lookup_app_id === 'string' ? column.lookup_app_id : undefined;
  const linkedColumns = source ? await deps.catalog.columns(portalId, source) : [];
  const lookup = column
    ? linkedLookup(column, linkedColumns, model.fieldValues(recordId, [field])[0])
    : { problem: `${field} is not a column of this app: it links to no record.` };
  if ('problem' in lookup) throw new Error(lookup.problem);
  const appName = (await deps.catalog.app(portalId, lookup.appId).catch(() => undefined))?.name ?? `app ${lookup.appId}`;
  let viewIds = deps.views.list(portalId, lookup.appId).map((view) => view.viewId);
  if (viewIds.length === 0) {
    const typed = await prompter().inputBox({
      title: `Open the ${appName} record "${lookup.value}"`,
      prompt: `The portal finds records of ${appName} only through a view: the id of a view of app ${lookup.appId} that shows it (the number in the view's address). Views you add in the Portal view are used without asking.`,
      ignoreFocusOut: true,
      validateInput: (value) => (/^\d+$/.test(value.trim()) ? undefined : 'A view id is a number.'),
    });
    if (typed === undefined) throw cancelled('Opening the linked record');
    viewIds = [typed.trim()];
  }
  const client = deps.portals.client(portalId);
  let found: ViewRow[] = [];
  for (const viewId of viewIds) {
    found = linkedRows(lookup, (await client.readView(lookup.appId, viewId, [linkedFilter(lookup)])).rows);
    if (found.length > 0) break;
  }
  const views = viewIds.length === 1 ? `view ${viewIds[0]}` : `views ${viewIds.join(', ')}`;
  if (found.length === 0)
    throw new Error(
      `No record of ${appName} shows "${lookup.value}" in ${lookup.shown.field_name} (looked in ${views} of app ${lookup.appId}).`,
    );
  let chosen = found[0];
  if (found.length > 1) {
    const picked = await prompter().quickPick(
      found.map((row) => ({ label: `Record ${row.id ?? ''}`, description: lookup.value, row })),
      { title: `${found.length} records of ${appName} show "${lookup.value}"`, placeHolder: 'Which one?' },
    );
    if (!picked) throw cancelled('Opening the linked record');
    chosen = picked.row;
  }
  await openRecord(portalId, lookup.appId, chosen.id ?? '');
}
