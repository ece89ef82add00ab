// What watched reads found and the user has not looked at yet: the rows new or changed, marked in the tree
// (a decoration on the record's item: N or C), and the count of new, changed and removed rows on the Portal
// view's badge. A row's mark goes when its record is opened; a view's marks when the view is selected in the
// tree or no longer watched.
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { recordKey } from '../model/recordAddress';
import { recordOfUri } from '../model/recordUri';
import type { ViewTarget } from '../model/targets';
import type { RowChange, RowChangeKind } from '../watch/rowDigest';

interface Mark {
  readonly kind: RowChangeKind;
  /** The watched view (its key) whose read found it. */
  readonly watchKey: string;
}

const LETTERS: Readonly<Record<RowChangeKind, string>> = { new: 'N', changed: 'C', removed: 'R' };
const TOOLTIPS: Readonly<Record<RowChangeKind, string>> = {
  new: 'New in a watched view since you last looked',
  changed: 'Changed on the portal since you last looked (a watched view)',
  removed: 'Gone from a watched view since you last looked',
};
const COLORS: Readonly<Record<RowChangeKind, string>> = {
  new: 'gitDecoration.addedResourceForeground',
  changed: 'gitDecoration.modifiedResourceForeground',
  removed: 'gitDecoration.deletedResourceForeground',
};

export class ChangeMarks extends Disposable implements vscode.FileDecorationProvider {
  private readonly marks = new Map<string, Mark>();
  private readonly decorationsChanged = this._register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeFileDecorations: vscode.Event<undefined> = this.decorationsChanged.event;
  private readonly counted = this._register(new vscode.EventEmitter<number>());
  /** Fires with the number of marks whenever it changes. */
  readonly onDidChangeCount: vscode.Event<number> = this.counted.event;

  constructor(private readonly badgeOn?: Pick<vscode.TreeView<unknown>, 'badge'>) {
    super();
    this._registerAll(
      vscode.window.registerFileDecorationProvider(this),
      vscode.workspace.onDidOpenTextDocument((document) => {
        const record = recordOfUri(document.uri);
        if (record && this.marks.delete(recordKey(record))) this.changed();
      }),
    );
  }

  get count(): number {
    return this.marks.size;
  }

  /** The mark of a record, if a watched read found it new, changed or removed. */
  markOf(record: { portalId: string; appId: string; recordId: string }): RowChangeKind | undefined {
    return this.marks.get(recordKey(record))?.kind;
  }

  mark(watchKey: string, view: ViewTarget, changes: readonly RowChange[]): void {
    for (const change of changes) {
      const key = recordKey({ portalId: view.portalId, appId: view.appId, recordId: change.recordId });
      // A row new since the user last looked stays new when it changes again.
      const kind = this.marks.get(key)?.kind === 'new' && change.kind === 'changed' ? 'new' : change.kind;
      this.marks.set(key, { kind, watchKey });
    }
    this.changed();
  }

  /** The user looked at the view (or stopped watching it): its marks go. */
  clearView(watchKey: string): void {
    let cleared = false;
    for (const [key, mark] of this.marks)
      if (mark.watchKey === watchKey) {
        this.marks.delete(key);
        cleared = true;
      }
    if (cleared) this.changed();
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const record = recordOfUri(uri);
    const mark = record ? this.marks.get(recordKey(record)) : undefined;
    if (!mark) return undefined;
    return new vscode.FileDecoration(LETTERS[mark.kind], TOOLTIPS[mark.kind], new vscode.ThemeColor(COLORS[mark.kind]));
  }

  private changed(): void {
    const count = this.marks.size;
    if (this.badgeOn)
      this.badgeOn.badge =
        count > 0
          ? { value: count, tooltip: `${count} ${count === 1 ? 'row' : 'rows'} new, changed or removed in watched views` }
          : undefined;
    this.decorationsChanged.fire(undefined);
    this.counted.fire(count);
  }
}
