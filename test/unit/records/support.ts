// The record store as the unit tests build it: over a client of the emulator.
import type { PortalClient } from '../../../src/api/client';
import type { Column } from '../../../src/api/types';
import { RecordStore } from '../../../src/records/store';

export /** The record store over the emulator's client, with the real clock unless told otherwise. */
function storeOver(client: PortalClient, now: () => number = () => Date.now()): RecordStore {
  return new RecordStore({
    client: () => client,
    columns: (_portalId, appId): Promise<readonly Column[]> => client.listColumns(appId),
    now,
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
  });
}
