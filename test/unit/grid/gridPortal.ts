// What the grid tests share: the emulator (port 0) with its Orders app (102) read over HTTP through the
// real client, and a change set over the rows of its view "All orders" (3), as the grid will hold them.
import { PortalClient } from '../../../src/api/client';
import { defaultFetch, type FetchLike } from '../../../src/api/http';
import type { ViewRow } from '../../../src/api/answers';
import type { Column, RecordData } from '../../../src/api/types';
import { ChangeSet } from '../../../src/grid/model/changeSet';
import type { GridLayout } from '../../../src/grid/model/blockEdits';
import { EditHistory } from '../../../src/grid/model/editHistory';
import { appRecords, type AppRecords } from '../../../src/records/store';
import { gridEditColumns } from '../../../src/grid/model/viewColumns';
import { CredentialsTokens, startPortal, testInterface, type Emulator } from '../api/portal';

export const ORDERS = '102';
export const ALL_ORDERS = '3';

/** One request as the client sent it: the PUT bodies tell which fields an update carried. */
export interface SentRequest {
  method: string;
  path: string;
  body: string | undefined;
}

export interface GridPortal {
  emulator: Emulator;
  client: PortalClient;
  /** Every request the client sent, with its body (node-fetch does the sending). */
  sent: SentRequest[];
  /** The most requests that were in flight at once since the last freshGrid(). */
  maxInFlight(): number;
  resetInFlight(): void;
  columns: Column[];
}

export async function startGridPortal(): Promise<GridPortal> {
  const emulator = await startPortal();
  const sent: SentRequest[] = [];
  let inFlight = 0;
  let most = 0;
  const recording: FetchLike = async (url, init) => {
    sent.push({ method: init.method, path: new URL(url).pathname, body: typeof init.body === 'string' ? init.body : undefined });
    inFlight += 1;
    most = Math.max(most, inFlight);
    try {
      return await defaultFetch(url, init);
    } finally {
      inFlight -= 1;
    }
  };
  const client = new PortalClient({ baseUrl: emulator.baseUrl, tokens: new CredentialsTokens(emulator), fetch: recording });
  const columns = await client.listColumns(ORDERS);
  return {
    emulator,
    client,
    sent,
    maxInFlight: () => most,
    resetInFlight: () => {
      most = inFlight;
    },
    columns,
  };
}

/** The rows of "All orders" and a change set over them, after resetting the emulator to its seed. */
export async function freshGrid(portal: GridPortal): Promise<{ changeSet: ChangeSet; rows: Map<string, RecordData>; layout: GridLayout }> {
  await testInterface(portal.emulator, 'POST', 'reset');
  const view = await portal.client.readView(ORDERS, ALL_ORDERS);
  const rows = new Map(view.rows.map((row) => [row.id ?? '', row.values]));
  const changeSet = new ChangeSet(portal.columns, (recordId) => rows.get(recordId));
  const layout: GridLayout = {
    rowIds: view.rows.map((row) => row.id ?? ''),
    columns: view.metadata.map((entry) => ({ key: entry.field_id_in_data, name: entry.field_name })),
  };
  portal.sent.length = 0;
  portal.resetInFlight();
  return { changeSet, rows, layout };
}

/** The emulator's request log (API requests only), after `since`. */
export async function requestLog(emulator: Emulator): Promise<Array<{ method: string; path: string; status: number; fault?: unknown }>> {
  return (await testInterface(emulator, 'GET', 'requests')) as Array<{ method: string; path: string; status: number; fault?: unknown }>;
}

/** A fresh grid (freshGrid) with what a save needs: its undo history and the record store over the client. */
export async function freshSave(portal: GridPortal): Promise<{ changeSet: ChangeSet; history: EditHistory; store: AppRecords }> {
  const { changeSet } = await freshGrid(portal);
  await testInterface(portal.emulator, 'DELETE', 'requests');
  return { changeSet, history: new EditHistory(changeSet), store: appRecords(portal.client, ORDERS) };
}

/** Another user of the portal, with a client of their own. */
export function someoneElseOn(portal: GridPortal): PortalClient {
  return new PortalClient({ baseUrl: portal.emulator.baseUrl, tokens: new CredentialsTokens(portal.emulator) });
}

/** What the portal holds for record `id` of Orders, read through the emulator's test interface. */
export async function portalData(portal: GridPortal, id: string): Promise<Record<string, string>> {
  return ((await testInterface(portal.emulator, 'GET', `records/${ORDERS}/${id}`)) as { data: Record<string, string> }).data;
}

/** "All orders" read anew after a reset, and the grid's columns of it. */
export async function ordersView(portal: GridPortal): Promise<{ rows: ViewRow[]; columns: ReturnType<typeof gridEditColumns> }> {
  await testInterface(portal.emulator, 'POST', 'reset');
  const view = await portal.client.readView(ORDERS, ALL_ORDERS);
  return { rows: view.rows, columns: gridEditColumns(ORDERS, view.metadata, () => portal.columns) };
}
