// An app's name for a message about one of its records, without failing the message when the catalog
// cannot say (not loaded, offline).
import type { RecordTarget } from '../model/targets';
import type { AppInfo, Catalog } from './catalog';

/** What the catalog knows of the record's app; undefined when it cannot say (not loaded, offline). */
export async function appInfoOf(catalog: Catalog, target: RecordTarget): Promise<AppInfo | undefined> {
  try {
    return await catalog.app(target.portalId, target.appId);
  } catch {
    return undefined;
  }
}

/** "Customers", or "app 101" when the catalog cannot say. */
export function appNameOf(info: AppInfo | undefined, target: RecordTarget): string {
  return info?.name ?? `app ${target.appId}`;
}
