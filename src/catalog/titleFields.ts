// The title field the user chose per portal connection and app ("Set Title Field…"), in global state; without
// one, the workspace file's (.vscode/portal.json): the user's own choice is theirs to keep.
import * as vscode from 'vscode';
import { PER_APP_STATE_KEYS } from '../model/stateKeys';
import { Disposable } from '../lifecycle';
import type { AppTarget } from '../model/targets';
import { PerAppState } from './perAppState';
import type { SharedSetup } from './workspaceSetup';

const STORAGE_KEY = PER_APP_STATE_KEYS.titleFields;

export class TitleFields extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<AppTarget>());
  readonly onDidChange: vscode.Event<AppTarget> = this.changed.event;
  private readonly state: PerAppState<string>;

  constructor(
    memento: vscode.Memento,
    private readonly shared?: SharedSetup,
  ) {
    super();
    this.state = new PerAppState(memento, STORAGE_KEY, (value) => (typeof value === 'string' && value !== '' ? value : undefined));
    if (shared)
      this._register(shared.onDidChange((changes) => changes.forEach(({ portalId, appId }) => this.changed.fire({ portalId, appId }))));
  }

  /** The field_id_in_data chosen for the app (by the user, else by the workspace file); undefined: the default (first text column). */
  get(app: AppTarget): string | undefined {
    return this.state.get(app.portalId, app.appId) ?? this.shared?.app(app.portalId, app.appId)?.titleField;
  }

  /** Whether the title field shown is the workspace file's. */
  isShared(app: AppTarget): boolean {
    return this.state.get(app.portalId, app.appId) === undefined && this.shared?.app(app.portalId, app.appId)?.titleField !== undefined;
  }

  /** Chooses the field (undefined: back to the default). */
  async set(app: AppTarget, fieldId: string | undefined): Promise<void> {
    await this.state.set(app.portalId, app.appId, fieldId);
    this.changed.fire({ portalId: app.portalId, appId: app.appId });
  }
}
