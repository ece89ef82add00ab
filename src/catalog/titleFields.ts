// The title field the user chose per portal connection and app ("Set Title Field…"), in global state.
import * as vscode from 'vscode';
import { PER_APP_STATE_KEYS } from '../auth/forgetPortal';
import { Disposable } from '../lifecycle';
import type { AppTarget } from '../model/targets';
import { PerAppState } from './perAppState';

const STORAGE_KEY = PER_APP_STATE_KEYS.titleFields;

export class TitleFields extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<AppTarget>());
  readonly onDidChange: vscode.Event<AppTarget> = this.changed.event;
  private readonly state: PerAppState<string>;

  constructor(memento: vscode.Memento) {
    super();
    this.state = new PerAppState(memento, STORAGE_KEY, (value) => (typeof value === 'string' && value !== '' ? value : undefined));
  }

  /** The field_id_in_data chosen for the app; undefined: the default (first text column). */
  get(app: AppTarget): string | undefined {
    return this.state.get(app.portalId, app.appId);
  }

  /** Chooses the field (undefined: back to the default). */
  async set(app: AppTarget, fieldId: string | undefined): Promise<void> {
    await this.state.set(app.portalId, app.appId, fieldId);
    this.changed.fire({ portalId: app.portalId, appId: app.appId });
  }

}
