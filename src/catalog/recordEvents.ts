// One bus for "a record changed": fired by whoever changed it (documents on save, publish, delete and
// create; the panels on create; the webhook receiver for changes made elsewhere), heard by whoever shows
// it (the tree refreshes the affected views, open documents reload).
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';

export type RecordChangeKind = 'created' | 'updated' | 'deleted';

export interface RecordChange {
  readonly portalId: string;
  readonly appId: string;
  readonly recordId: string;
  readonly kind: RecordChangeKind;
  /**
   * 'local': this window changed it (a document's save, a panel); 'agent': a language model tool of this
   * window did, so open documents of the record read it anew; 'webhook': the portal said someone did;
   * 'watch': a watched view's read found it changed (someone else did, as far as this window knows).
   */
  readonly origin: 'local' | 'agent' | 'webhook' | 'watch';
  /**
   * When the read that found the change started (ms, 'watch'): rows of the record's views read since then
   * hold it already, so they are not read again for it (the watched view itself).
   */
  readonly seenAt?: number;
  /**
   * 'documents': a record document's own save (its editor has the text already). 'import' and 'bulk': one
   * record of an import or a bulk change (Set Field…, Delete Rows…), which announce each record as the
   * portal takes it; a listener that does more than note it should gather them (the tree does). Other
   * local changes (grid, panels) do not say.
   */
  readonly source?: 'documents' | 'import' | 'bulk';
}

export class RecordEvents extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<RecordChange>());
  readonly onDidChange: vscode.Event<RecordChange> = this.emitter.event;

  fire(change: RecordChange): void {
    this.emitter.fire(change);
  }
}
