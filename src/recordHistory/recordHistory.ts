// Record History: the versions of a record this VS Code has seen, for the record of the active editor (as
// GitLens' File History follows the active file: VS Code's Timeline takes providers only through a proposed
// API). Versions come from the record store only (records/versions.ts): every copy it reads and every write
// through it (a document's save, a grid's or board's, an import's, a bulk change's, an agent tool's), with
// what brought it. The record bus says only why a record is read next: after a webhook's event or a watched
// view's change, the read that follows (a document's reload) is put down to it. Offers are gathered and
// written in batches (an import offers one per row). Selecting a version opens a diff of it (a read-only
// `portal-history:` document) against the record's document.
import * as vscode from 'vscode';
import type { Column } from '../api/types';
import type { RecordChange, RecordEvents } from '../catalog/recordEvents';
import { recordText } from '../fs/recordText';
import { VersionBatches, versionToKeep } from '../history/versionBatches';
import type { HistoryLimits, RecordVersion, VersionCause, VersionLog, VersionToKeep } from '../history/versionLog';
import { HISTORY_COMMANDS, HISTORY_SCHEME } from '../ids';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import { recordKey, schemaReference } from '../model/recordAddress';
import { recordOfUri, recordUri } from '../model/recordUri';
import type { RecordTarget } from '../model/targets';
import type { SeenVersion, Versions } from '../records/versions';
import { setting } from '../settings/settings';

/** How long a change told on the bus explains the next read of the record. */
const CAUSE_MS = 60_000;

const CAUSE_LABELS: Record<VersionCause, string> = {
  opened: 'Opened',
  read: 'Read from the portal',
  saved: 'Saved by you',
  grid: 'Saved from a grid',
  import: 'Written by an import',
  bulk: 'Written by a bulk change',
  webhook: 'Changed on the portal (webhook)',
  watch: 'Changed on the portal (watched view)',
  agent: 'Changed by an agent tool',
};

/** A row of the view: one version of the record shown. */
export interface VersionNode {
  readonly record: RecordTarget;
  readonly version: RecordVersion;
}

/**
 * What a change told on the bus says brought the record's next read: a change made elsewhere, which this
 * window sees only by reading the record. A change this window made needs none: the store offered the
 * version it wrote (an import's changes, one per record, would otherwise each wait here for a read).
 */
function causeOf(change: RecordChange): VersionCause | undefined {
  if (change.kind !== 'updated' && change.kind !== 'created') return undefined;
  return change.origin === 'webhook' || change.origin === 'watch' ? change.origin : undefined;
}

/** The address of a version's read-only document: portal-history:/<portal>/<app>/<record>/<at>.json?<hash>. */
export function versionUri(record: RecordTarget, version: RecordVersion): vscode.Uri {
  const parts = [record.portalId, record.appId, record.recordId].map(encodeURIComponent).join('/');
  return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${parts}/${version.at}.json`, query: version.hash });
}

function parseVersionUri(uri: vscode.Uri): { record: RecordTarget; hash: string } | undefined {
  const parts = uri.path.split('/').slice(1);
  if (parts.length !== 4) return undefined;
  const [portalId, appId, recordId] = parts.slice(0, 3).map(decodeURIComponent);
  return { record: { portalId, appId, recordId }, hash: uri.query };
}

export class RecordHistory
  extends Disposable
  implements vscode.TreeDataProvider<VersionNode>, vscode.TextDocumentContentProvider, Versions
{
  private readonly changed = this._register(new vscode.EventEmitter<VersionNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** By recordKey: what a change told on the bus says brought the record's next read, and until when. */
  private readonly pending = new Map<string, { cause: VersionCause; until: number }>();
  private shown: RecordTarget | undefined;
  /** The offers, gathered and written in batches. */
  private readonly batches: VersionBatches;

  constructor(
    readonly log: VersionLog,
    /** The app's columns, in position order (a version's text is the record's document). */
    private readonly columns: (portalId: string, appId: string) => Promise<readonly Column[]>,
    events: RecordEvents,
    logger: Logger,
  ) {
    super();
    this.batches = new VersionBatches({
      log,
      prepare: (batch) => this.prepare(batch),
      kept: (records) => {
        const shown = this.shown && recordKey(this.shown);
        if (shown && records.some((record) => recordKey(record) === shown)) this.changed.fire(undefined);
      },
      warn: (line) => logger.warn(line),
    });
    this._register(events.onDidChange((change) => this.noteChange(change)));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.follow()));
    this._register(this.batches);
    this.follow();
  }

  /** A version the store saw: kept with the next batch (a read is put down to a change told just before it). */
  offer(version: SeenVersion): void {
    const cause = version.cause === 'opened' || version.cause === 'read' ? this.takeCause(version.record, version.cause) : version.cause;
    this.batches.offer(cause === version.cause ? version : { ...version, cause });
  }

  /** Writes what was offered so far; resolves once it is written. */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  /** A batch's versions as the records' documents; those of an app whose columns cannot be had are left out. */
  private async prepare(batch: readonly SeenVersion[]): Promise<VersionToKeep[]> {
    const columnsByApp = new Map<string, Promise<readonly Column[] | undefined>>();
    const toKeep: VersionToKeep[] = [];
    for (const seen of batch) {
      const { portalId, appId } = seen.record;
      const app = `${portalId}/${appId}`;
      let columns = columnsByApp.get(app);
      if (!columns) columnsByApp.set(app, (columns = this.columns(portalId, appId).catch(() => undefined)));
      const known = await columns;
      const reference = schemaReference(portalId, appId);
      if (known) toKeep.push(versionToKeep(seen, (data) => recordText(data, known, reference)));
    }
    return toKeep;
  }

  private takeCause(record: RecordTarget, cause: VersionCause): VersionCause {
    const key = recordKey(record);
    const pending = this.pending.get(key);
    if (!pending) return cause;
    this.pending.delete(key);
    return pending.until >= Date.now() ? pending.cause : cause;
  }

  private noteChange(change: RecordChange): void {
    const cause = causeOf(change);
    if (!cause) return;
    const now = Date.now();
    // A watched view's read may tell many: the causes no read took are let go.
    if (this.pending.size > 1_000) for (const [key, entry] of this.pending) if (entry.until < now) this.pending.delete(key);
    this.pending.set(recordKey(change), { cause, until: now + CAUSE_MS });
  }

  /** Shows the active editor's record (or the last one shown, when the editor is no record's). */
  private follow(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const record = uri && recordOfUri(uri);
    if (!record || (this.shown && recordKey(this.shown) === recordKey(record))) return;
    this.shown = record;
    this.changed.fire(undefined);
  }

  /** The record shown (the test API and the commands). */
  get record(): RecordTarget | undefined {
    return this.shown;
  }

  async getChildren(element?: VersionNode): Promise<VersionNode[]> {
    if (element || !this.shown) return [];
    const record = this.shown;
    await this.flush();
    return (await this.log.versions(record)).reverse().map((version) => ({ record, version }));
  }

  getTreeItem({ record, version }: VersionNode): vscode.TreeItem {
    const item = new vscode.TreeItem(CAUSE_LABELS[version.cause]);
    item.description = new Date(version.at).toLocaleString();
    item.tooltip = `${CAUSE_LABELS[version.cause]}, ${new Date(version.at).toLocaleString()}. Select to compare with the record's current copy.`;
    item.contextValue = 'portal.recordVersion';
    item.iconPath = new vscode.ThemeIcon('git-commit');
    item.id = `${recordKey(record)}#${version.at}#${version.hash}`;
    item.command = { command: HISTORY_COMMANDS.compare, title: 'Compare with This Version', arguments: [{ record, version }] };
    return item;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const address = parseVersionUri(uri);
    await this.flush();
    const version = address && (await this.log.versions(address.record)).find((kept) => kept.hash === address.hash);
    if (!version) throw new Error(`This version is not in Record History any more (${uri.path}).`);
    return version.text;
  }

  /** Opens the diff of a version against the record's document. */
  async compare(node: VersionNode): Promise<void> {
    const { record, version } = node;
    const title = `Record ${record.recordId}: ${CAUSE_LABELS[version.cause]}, ${new Date(version.at).toLocaleString()} ↔ current`;
    // Against the document open under a named address when there is one, so that its unsaved text counts.
    const open = vscode.workspace.textDocuments.find((document) => {
      const shown = recordOfUri(document.uri);
      return shown !== undefined && recordKey(shown) === recordKey(record);
    });
    await vscode.commands.executeCommand('vscode.diff', versionUri(record, version), open?.uri ?? recordUri(record), title);
  }
}

/** The bounds, from the settings, read at each append (a changed setting counts at once). */
export function historyLimits(): HistoryLimits {
  return {
    maxVersionsPerRecord: setting('history.maxVersionsPerRecord'),
    maxTotalBytes: setting('history.maxTotalMegabytes') * 1024 * 1024,
  };
}
