// The two calls the grid's save needs from the portal, as narrow as the save planner uses them, so that it
// runs on any store of records: today the adapter below over the portal client, later the record store
// shared with record documents. Failures are PortalErrors (src/api/errors.ts): the save runner reads their
// status, retryability and Retry-After.
import type { PortalClient } from '../api/client';
import { isPortalError } from '../api/errors';
import type { RecordData } from '../api/types';

export interface RecordStore {
  /** The portal's current copy of the record; undefined when it is deleted or in trash. */
  readCurrent(recordId: string, signal?: AbortSignal): Promise<RecordData | undefined>;
  /** Sends `fields` and nothing else (the portal changes only the fields sent). */
  update(recordId: string, fields: RecordData, signal?: AbortSignal): Promise<void>;
  /** Creates a record of `fields` (a draft where the store says so); its id and the portal's copy. */
  create(fields: RecordData, signal?: AbortSignal): Promise<{ recordId: string; copy: RecordData }>;
}

/**
 * The store over the portal client, for the records of one app. New records are created as drafts when
 * `draft` (apps with Draft mode) and read back once, for what the portal filled in (Auto Number, LookUp,
 * defaults); when that read fails, the copy is what was sent.
 */
export function portalRecordStore(client: PortalClient, appId: string, options: { draft?: boolean } = {}): RecordStore {
  return {
    async readCurrent(recordId, signal) {
      try {
        return (await client.readRecord(appId, recordId, signal)).data;
      } catch (error) {
        // The portal answers 404 for a record in trash as for one that never was: both are gone for the grid.
        if (isPortalError(error) && error.kind === 'http' && error.status === 404) return undefined;
        throw error;
      }
    },
    update: (recordId, fields, signal) => client.updateRecord(appId, recordId, fields, {}, signal),
    async create(fields, signal) {
      const created = await client.createRecord(appId, fields, { draft: options.draft === true }, signal);
      if (!created.id) throw new Error('The portal created the record but did not say its id: refresh the view to see it.');
      const read = await client.readRecord(appId, created.id, signal).catch(() => undefined);
      return { recordId: created.id, copy: read?.data ?? { ...fields } };
    },
  };
}
