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
}

/** The store over the portal client, for the records of one app. */
export function portalRecordStore(client: PortalClient, appId: string): RecordStore {
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
  };
}
