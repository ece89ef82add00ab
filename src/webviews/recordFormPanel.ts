// The host side of the create-record form: reads the app's columns (and whether it has Draft mode), checks
// what the form sends with the same rules as documents, creates the record, and reports the portal's
// refusal with the field it names. One panel per app; opening it again brings it to the front.
import type * as vscode from 'vscode';
import { isPortalError } from '../api/errors';
import { checkRecord } from '../api/formats';
import { mayHaveBeenDone } from '../records/failures';
import { appRecords } from '../records/store';
import type { Column, RecordData } from '../api/types';
import type { Stores } from '../catalog/stores';
import { PANEL_VIEW_TYPES } from '../ids';
import { createLogger } from '../log';
import type { AppTarget } from '../model/targets';
import { formToHostSchema } from '../shared/panelMessages';
import type { FormOutcome, FormToHostMessage, HostToFormMessage } from '../shared/protocol';
import { runReported, runShownInPanel } from '../ui/errorBoundary';
import { prompter } from '../ui/prompter';
import { OpenPanels } from './openPanels';
import { openRecord } from './openRecord';
import { Panel } from './panel';

const log = createLogger('recordForm');

export type PanelDeps = Pick<Stores, 'portals' | 'catalog' | 'recordEvents' | 'versions'> & { readonly extensionUri: vscode.Uri };

/** Apps seen to publish a record asked for as a draft (no Draft mode), per portal, for this session. */
const withoutDraftMode = new Set<string>();

export class RecordFormPanel {
  private static readonly open = new OpenPanels<RecordFormPanel>();
  private columns: Column[] = [];
  /** The last create: a page reloaded meanwhile gets it with form/init (its form/created may have been missed). */
  private outcome: FormOutcome | undefined;
  private appName: string;
  /** What the next form/init starts the fields with, and who hears of the next create (Create Record from TODO). */
  private prefill: { values: Record<string, string>; onCreated?: (recordId: string) => Promise<void> } | undefined;
  private onCreated: ((recordId: string) => Promise<void>) | undefined;
  private loaded = false;

  /** `appName`: the app's name when known (the panel's title); the form reads it again as it loads. */
  static show(
    deps: PanelDeps,
    target: AppTarget,
    appName?: string,
    restored?: { panel: vscode.WebviewPanel; state: unknown },
  ): RecordFormPanel {
    const key = JSON.stringify([target.portalId, target.appId]);
    const existing = RecordFormPanel.open.get(key);
    if (existing) {
      restored?.panel.dispose();
      existing.panel.reveal();
      return existing;
    }
    return RecordFormPanel.open.add(key, new RecordFormPanel(deps, target, appName, restored));
  }

  /** Opens (or brings up) the app's form with `values` entered; `onCreated` hears of the record it creates next. */
  static showPrefilled(
    deps: PanelDeps,
    target: AppTarget,
    appName: string | undefined,
    values: Record<string, string>,
    onCreated?: (recordId: string) => Promise<void>,
  ): RecordFormPanel {
    const shown = RecordFormPanel.show(deps, target, appName);
    shown.prefill = { values, ...(onCreated ? { onCreated } : {}) };
    // A form already loaded gets its fields again now; a new one with its first form/init.
    // Not awaited: load() reports its own failure in the panel.
    if (shown.loaded) void shown.load();
    return shown;
  }

  readonly panel: Panel<FormToHostMessage, HostToFormMessage>;

  private constructor(
    private readonly deps: PanelDeps,
    readonly target: AppTarget,
    appName: string | undefined,
    private readonly restored: { panel: vscode.WebviewPanel; state: unknown } | undefined,
  ) {
    this.appName = appName ?? `App ${target.appId}`;
    this.panel = Panel.create<FormToHostMessage, HostToFormMessage>(
      { viewType: PANEL_VIEW_TYPES.form, title: `New record · ${this.appName}`, bundle: 'recordForm', extensionUri: deps.extensionUri },
      formToHostSchema,
      restored?.panel,
    );
    this.panel.onMessage((message) => this.handle(message));
  }

  private get client() {
    return this.deps.portals.client(this.target.portalId);
  }

  private draftKey(): string {
    return JSON.stringify([this.target.portalId, this.target.appId]);
  }

  private async handle(message: FormToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        await this.load();
        break;
      case 'retry':
        this.deps.catalog.refresh(this.target.portalId, this.target.appId);
        await this.load();
        break;
      case 'form/create':
        await this.create(message.data, message.draft);
        break;
      case 'openRecord':
        await openRecord(this.target.portalId, this.target.appId, message.recordId);
        break;
    }
  }

  private async load(): Promise<void> {
    await runShownInPanel(
      `${PANEL_VIEW_TYPES.form} load`,
      () => this.sendInit(),
      (message) => this.panel.post({ type: 'form/loadFailed', message }),
    );
  }

  private async sendInit(): Promise<void> {
    const [columns, info] = await Promise.all([
      this.deps.catalog.columns(this.target.portalId, this.target.appId),
      this.deps.catalog.app(this.target.portalId, this.target.appId),
    ]);
    this.columns = [...columns];
    if (info?.name) this.appName = info.name;
    this.panel.panel.title = `New record · ${this.appName}`;
    const offerDraft = info?.draftMode !== false && !withoutDraftMode.has(this.draftKey());
    const connection = this.deps.portals.get(this.target.portalId);
    const prefill = this.prefill;
    if (prefill) {
      this.prefill = undefined;
      this.onCreated = prefill.onCreated;
      // A new record is asked for: the last create's outcome is not this one's.
      this.outcome = undefined;
    }
    this.loaded = true;
    await this.panel.post({
      type: 'form/init',
      appName: this.appName,
      portalLabel: connection?.label ?? this.target.portalId,
      columns: this.columns,
      offerDraft,
      restore: { portalId: this.target.portalId, appId: this.target.appId },
      pageState: this.restored?.state,
      ...(this.outcome ? { outcome: this.outcome } : {}),
      ...(prefill ? { prefill: prefill.values } : {}),
    });
  }

  private fieldName(field: string): string {
    return this.columns.find((column) => column.field_id_in_data === field)?.field_name || field;
  }

  private async create(data: RecordData, draft: boolean): Promise<void> {
    // The page checked already; the host checks again, as the documents do, so nothing bad is ever sent.
    const problems = checkRecord(this.columns, data, { creating: true });
    if (problems.length > 0) {
      const [first] = problems;
      await this.panel.post({ type: 'form/failed', field: first.field, message: `${this.fieldName(first.field)}: ${first.message}` });
      return;
    }
    // One create at a time: a page reloaded while hidden (or a second click) must not send the record twice.
    if (this.outcome?.state === 'pending') {
      log.info(`a second create in app ${this.target.appId} while one is under way was refused`);
      return;
    }
    this.outcome = { state: 'pending' };
    // The portal's refusal is shown next to the field it names.
    await runShownInPanel(
      `${PANEL_VIEW_TYPES.form} create`,
      () => this.send(data, draft),
      (message, error) => {
        const field = isPortalError(error) ? error.field : undefined;
        // A lost answer may hide a record the portal created: a plain failure would invite a second one.
        const maybe = mayHaveBeenDone(error)
          ? ` The portal may have created the record all the same: look in ${this.appName} before creating it again.`
          : '';
        return this.panel.post({ type: 'form/failed', message: `${message}${maybe}`, ...(field ? { field } : {}) });
      },
    );
    // Failed or cancelled: the page has said so, and a new Create may go.
    if (this.outcome?.state === 'pending') this.outcome = undefined;
  }

  private async send(data: RecordData, draft: boolean): Promise<void> {
    // Through the record store's rows API, which offers the new record to Record History.
    const history = { versions: this.deps.versions, portalId: this.target.portalId, cause: 'saved' } as const;
    const { recordId } = await appRecords(this.client, this.target.appId, { draft, history }).create(data, undefined, { readBack: false });
    const created = { id: recordId };
    let isDraft = false;
    if (draft && created.id) {
      // Draft mode is not in the documented API: read the record back to know what the portal did.
      const read = await this.client.readRecord(this.target.appId, created.id).catch(() => undefined);
      isDraft = read?.draft === true;
      if (isDraft) this.deps.catalog.noteDraftSeen(this.target.portalId, this.target.appId);
      if (read?.draft === false) withoutDraftMode.add(this.draftKey());
    }
    const where = `${this.appName}`;
    const id = created.id ? `record ${created.id}` : 'a record';
    const message =
      draft && !isDraft && created.id
        ? `Created ${id} in ${where}, published: the app does not have Draft mode.`
        : `Created ${isDraft ? 'draft ' : ''}${id} in ${where}.`;
    log.info(`created ${id} in app ${this.target.appId}${isDraft ? ' as a draft' : ''}`);
    if (created.id)
      this.deps.recordEvents.fire({
        portalId: this.target.portalId,
        appId: this.target.appId,
        recordId: created.id,
        kind: 'created',
        origin: 'local',
      });
    this.outcome = { state: 'created', recordId: created.id, draft: isDraft, message };
    const onCreated = this.onCreated;
    this.onCreated = undefined;
    const newId = created.id;
    if (onCreated && newId) await runReported('portal.recordForm after create', () => onCreated(newId));
    await this.panel.post({ type: 'form/created', recordId: created.id, draft: isDraft, message });
    // Not awaited: the notification stays up while the panel goes on; its "Open record" is reported as any action.
    void runReported('portal.recordForm open record', () => this.announce(message, created.id));
  }

  private async announce(message: string, recordId: string | undefined): Promise<void> {
    const action = recordId ? await prompter().info(message, 'Open record') : await prompter().info(message);
    if (action === 'Open record' && recordId) await openRecord(this.target.portalId, this.target.appId, recordId);
  }
}
