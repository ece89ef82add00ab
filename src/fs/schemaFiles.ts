// The JSON Schema documents of the `portal:` file system (/<app_id>/schema/record.json): made from the app's
// columns (src/schema/recordSchema.ts), read-only, and read again by VS Code when the columns they were
// made from change.
import * as vscode from 'vscode';
import type { Column } from '../api/types';
import { parseAddress } from '../model/recordAddress';
import { schemaUri } from '../model/recordUri';
import type { AppTarget } from '../model/targets';
import { buildRecordSchema } from '../schema/recordSchema';

export interface SchemaFilesDeps {
  columns(portalId: string, appId: string): Promise<readonly Column[]>;
  /** A failure to read the columns, as the file system reports it. */
  unavailable(error: unknown, portalId: string): Error;
  /** VS Code reads these documents again. */
  fireChanged(uris: vscode.Uri[]): void;
}

const encoder = new TextEncoder();

export class SchemaFiles {
  /** The schema documents served, by URI, with the columns they were made from. */
  private readonly served = new Map<string, readonly Column[]>();
  /**
   * By URI, the columns last made into a schema and when: the schema's mtime. VS Code reads a document
   * again after a change event only when its stat moved; a constant mtime left a new schema of the same
   * length unread. Kept while `served` forgets (a schema VS Code is told to read again).
   */
  private readonly versions = new Map<string, { columns: readonly Column[]; mtime: number }>();

  constructor(private readonly deps: SchemaFilesDeps) {}

  async stat(app: AppTarget): Promise<vscode.FileStat> {
    const size = (await this.read(app)).length;
    const mtime = this.versions.get(schemaUri(app).toString())?.mtime ?? 0;
    return { type: vscode.FileType.File, ctime: 0, mtime, size, permissions: vscode.FilePermission.Readonly };
  }

  async read(app: AppTarget): Promise<Uint8Array> {
    let columns: readonly Column[];
    try {
      columns = await this.deps.columns(app.portalId, app.appId);
    } catch (error) {
      throw this.deps.unavailable(error, app.portalId);
    }
    const key = schemaUri(app).toString();
    this.served.set(key, columns);
    const version = this.versions.get(key);
    // Later than the last one even when the clock did not move (or went back).
    if (version?.columns !== columns) this.versions.set(key, { columns, mtime: Math.max(Date.now(), (version?.mtime ?? 0) + 1) });
    return encoder.encode(`${JSON.stringify(buildRecordSchema(columns), null, 2)}\n`);
  }

  /** A record of the app was read with `columns`: a schema served from other columns is read again. */
  noteColumns(app: AppTarget, columns: readonly Column[]): void {
    const uri = schemaUri(app);
    const used = this.served.get(uri.toString());
    if (used === undefined || used === columns) return;
    this.served.delete(uri.toString());
    this.deps.fireChanged([uri]);
  }

  /** Forgets the schemas served whose app and columns `outdated` says are, and returns their URIs. */
  takeOutdated(outdated: (app: AppTarget, used: readonly Column[]) => boolean): vscode.Uri[] {
    const uris: vscode.Uri[] = [];
    for (const [key, used] of this.served) {
      const uri = vscode.Uri.parse(key);
      const address = parseAddress(uri);
      if (address?.kind !== 'schema' || !outdated({ portalId: address.portalId, appId: address.appId }, used)) continue;
      this.served.delete(key);
      uris.push(uri);
    }
    return uris;
  }
}
