// What a webhook about a record does in this window: the record bus hears of it (origin 'webhook'), so
// the explorer refreshes the record's views and the `portal:` file system marks its copy stale: an open
// document without unsaved changes reloads from the portal. A document WITH unsaved changes is never
// touched: the user is told once (until it is saved, reverted or closed) that the portal's copy moved,
// and the save will then meet the documents' conflict check. A "deleted" event is acted on only after a
// read confirms the portal no longer has the record (confirmedChange). Every event goes through the pacer
// (eventPacer.ts): a record's events coalesced, a bounded number of records acted on per window, so no
// sender can make this window read without bound.
import * as vscode from 'vscode';
import type { WebhookPayload } from '../api/webhookPayload';
import type { Portals } from '../auth/portals';
import type { RecordChange, RecordChangeKind, RecordEvents } from '../catalog/recordEvents';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import { appRecords } from '../records/store';
import { isSameRecord } from '../model/recordUri';
import { tell } from '../ui/prompter';
import { EventPacer, WEBHOOK_PACE } from './eventPacer';
import { confirmedChange, recordChangeOf } from './recordChange';

/**
 * A webhook about a record this window saved within this time is the echo of that save: the document,
 * dirty again already, is not "changed by someone else". A real third-party change inside it is still
 * caught by the conflict check when saving.
 */
const ECHO_MS = 10_000;

const recordKey = (change: Pick<RecordChange, 'portalId' | 'appId' | 'recordId'>): string =>
  `${change.portalId}\u0000${change.appId}\u0000${change.recordId}`;

export class LiveRefresh extends Disposable {
  /** Dirty documents already told about, by URI; forgotten when saved, reverted or closed. */
  private readonly told = new Set<string>();
  private readonly localChanges = new Map<string, number>();
  private readonly pacer: EventPacer<{ portalId: string; payload: WebhookPayload; kind: RecordChangeKind }>;

  constructor(
    private readonly recordEvents: RecordEvents,
    private readonly portals: Portals,
    private readonly log: Logger,
  ) {
    super();
    this.pacer = new EventPacer(
      WEBHOOK_PACE,
      (_key, event) => this.actPaced(event.portalId, event.payload, event.kind),
      (count) =>
        this.log.warn(
          `${count} webhook events were not acted on: too many records were waiting to be refreshed. They are listed in the Webhook Events view.`,
        ),
    );
    this._register({ dispose: () => this.pacer.dispose() });
    this._registerAll(
      recordEvents.onDidChange((change) => {
        if (change.origin !== 'local') return;
        const now = Date.now();
        // Kept oldest first (a key set again moves to the end), so pruning stops at the first one still
        // young: an import announcing 10,000 records must not scan the whole map for each of them.
        for (const [key, at] of this.localChanges) {
          if (now - at < ECHO_MS) break;
          this.localChanges.delete(key);
        }
        const key = recordKey(change);
        this.localChanges.delete(key);
        this.localChanges.set(key, now);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => this.told.delete(document.uri.toString())),
      vscode.workspace.onDidCloseTextDocument((document) => this.told.delete(document.uri.toString())),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (!event.document.isDirty) this.told.delete(event.document.uri.toString());
      }),
    );
  }

  /**
   * Acts on an accepted delivery, at the pacer's pace (a "deleted" one after a read); returns the change it
   * names, if any.
   */
  handle(portalId: string, payload: WebhookPayload): RecordChangeKind | undefined {
    const kind = recordChangeOf(payload.event);
    if (kind === undefined) return undefined;
    this.pacer.push(recordKey({ portalId, appId: payload.app_id, recordId: payload.record_id }), { portalId, payload, kind });
    return kind;
  }

  private actPaced(portalId: string, payload: WebhookPayload, kind: RecordChangeKind): void {
    if (kind !== 'deleted') {
      this.act(portalId, payload, kind);
      return;
    }
    const read = (): Promise<unknown> => appRecords(this.portals.client(portalId), payload.app_id).readCurrent(payload.record_id);
    // Not awaited: the delivery is answered already.
    void confirmedChange(kind, read)
      .then((confirmed) => {
        if (confirmed !== kind)
          this.log.info(`Record ${payload.record_id} of app ${payload.app_id}: a "deleted" event, but the portal still has it; read anew.`);
        this.act(portalId, payload, confirmed);
      })
      .catch((error: unknown) =>
        this.log.error(`Acting on the deletion of record ${payload.record_id}: ${error instanceof Error ? error.message : String(error)}`),
      );
  }

  private act(portalId: string, payload: WebhookPayload, kind: RecordChangeKind): void {
    this.actOn({ portalId, appId: payload.app_id, recordId: payload.record_id, kind, origin: 'webhook' });
  }

  /**
   * A change a watched view's read found (src/watched): acted on as a webhook's, so documents and grids
   * follow it the same way and a document with unsaved edits is left alone. Not paced: one read's changes
   * are bounded by the view, and the read itself comes at most once an interval.
   */
  portalChanged(change: RecordChange): void {
    this.actOn(change);
  }

  private actOn(change: RecordChange): void {
    // Looked at before the bus hears of it: the file system may mark a deleted record's document at once.
    const dirty = vscode.workspace.textDocuments.find((document) => document.isDirty && isSameRecord(document.uri, change));
    this.recordEvents.fire(change);
    if (dirty) this.tellDirty(dirty, change);
  }

  private tellDirty(document: vscode.TextDocument, change: RecordChange): void {
    const key = document.uri.toString();
    const savedHere = this.localChanges.get(recordKey(change));
    if (change.kind === 'updated' && savedHere !== undefined && Date.now() - savedHere < ECHO_MS) {
      this.log.debug(`Record ${change.recordId} of app ${change.appId}: the webhook echoes this window's own save.`);
      return;
    }
    if (this.told.has(key)) return;
    this.told.add(key);
    const portal = this.portals.get(change.portalId)?.label ?? change.portalId;
    const what = `Record ${change.recordId} of app ${change.appId} (${portal})`;
    const message =
      change.kind === 'deleted'
        ? `${what} was deleted in the portal while you have unsaved edits. Nothing was overwritten: your text stays in the editor.`
        : `${what} changed in the portal while you have unsaved edits. Nothing was overwritten; saving will show the conflict so you can compare.`;
    this.log.info(`${what}: the portal's copy changed while its document has unsaved edits; the user was told.`);
    tell('warn', message);
  }
}
