// Record History: the versions of a record this VS Code has seen, for the record of the active editor (as
// GitLens' File History follows the active file: VS Code's Timeline takes providers only through a proposed
// API). Versions come from two places only: a read of the portal's copy by the record store (documents,
// agent tools), and the record bus (a document's save; webhooks, watched reads, imports and bulk changes say
// the record changed, and the read that follows, a document's reload, is put down to them). Selecting a
// version opens a diff of it (a read-only `portal-history:` document) against the record's document.
import * as vscode from 'vscode';
import type { RecordChange, RecordEvents } from '../catalog/recordEvents';
import type { RecordFileSystem } from '../fs/recordFileSystem';
import { recordText } from '../fs/recordText';
import type { HistoryLimits, RecordVersion, VersionCause, VersionLog } from '../history/versionLog';
import { HISTORY_COMMANDS, HISTORY_SCHEME } from '../ids';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import { recordKey, schemaReference } from '../model/recordAddress';
import { recordOfUri, recordUri } from '../model/recordUri';
import type { RecordTarget } from '../model/targets';
import type { RecordCopy } from '../records/store';
import { setting } from '../settings/settings';

/** How long a change told on the bus explains the next read of the record. */
const CAUSE_MS = 60_000;

const CAUSE_LABELS: Record<VersionCause, string> = {
  opened: 'Opened',
  saved: 'Saved by you',
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

function causeOf(change: RecordChange): VersionCause | undefined {
  if (change.kind !== 'updated' && change.kind !== 'created') return undefined;
  if (change.origin === 'webhook' || change.origin === 'watch' || change.origin === 'agent') return change.origin;
  if (change.source === 'import' || change.source === 'bulk') return change.source;
  return 'saved';
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

export class RecordHistory extends Disposable implements vscode.TreeDataProvider<VersionNode>, vscode.TextDocumentContentProvider {
  private readonly changed = this._register(new vscode.EventEmitter<VersionNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** By recordKey: what a change told on the bus says brought the record's next read, and until when. */
  private readonly pending = new Map<string, { cause: VersionCause; until: number }>();
  private shown: RecordTarget | undefined;

  constructor(
    readonly log: VersionLog,
    private readonly documents: RecordFileSystem,
    events: RecordEvents,
    private readonly logger: Logger,
  ) {
    super();
    this._register(documents.onDidRead(({ record, copy }) => this.keep(record, copy, this.takeCause(record))));
    this._register(events.onDidChange((change) => this.noteChange(change)));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.follow()));
    this.follow();
  }

  private takeCause(record: RecordTarget): VersionCause {
    const key = recordKey(record);
    const pending = this.pending.get(key);
    this.pending.delete(key);
    return pending && pending.until >= this.documents.now() ? pending.cause : 'opened';
  }

  private noteChange(change: RecordChange): void {
    const cause = causeOf(change);
    if (!cause) return;
    const record = { portalId: change.portalId, appId: change.appId, recordId: change.recordId };
    // A document's own save: the store holds the copy it wrote.
    const written = change.source === 'documents' ? this.documents.store.last(record) : undefined;
    if (written) this.keep(record, written, cause);
    else this.pending.set(recordKey(record), { cause, until: this.documents.now() + CAUSE_MS });
  }

  private keep(record: RecordTarget, copy: RecordCopy, cause: VersionCause): void {
    const text = recordText(copy.data, copy.columns, schemaReference(record.portalId, record.appId));
    // Not awaited: the read or save that brought it goes on; the log keeps its appends in order.
    void this.log.append(record, { at: Date.now(), cause, text }).then(
      (kept) => {
        if (kept && this.shown && recordKey(this.shown) === recordKey(record)) this.changed.fire(undefined);
      },
      (error: unknown) => this.logger.warn(`Record History could not keep a version of record ${record.recordId}: ${String(error)}`),
    );
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
