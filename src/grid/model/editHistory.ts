// Undo and redo of the grid's edits: every user action (a cell edit, a paste block, a fill down, a clear,
// a discard) is one transaction, undone and redone as one step. A transaction stores each cell's value
// before and after, not the pending state, so undoing to the value as read drops the pending change and
// undoing after a save makes the cell pending again (as undo after save does in a text editor).
//
// The custom editor hands each transaction to VS Code as one edit (CustomDocumentEditEvent) whose undo and
// redo call undo(transaction) and redo(transaction) here; VS Code calls them in stack order, so the two
// stacks stay in step. For that reason nothing is dropped from the bottom of the stack by default (VS Code
// keeps every edit too), and a call for a transaction that is not on top does nothing rather than undo
// another one.
import type { ApplyResult, CellEdit, ChangeSet, RefusedCell } from './changeSet';

export type TransactionKind = 'edit' | 'paste' | 'fill' | 'clear' | 'discard' | 'addRow';

export interface Transaction {
  readonly kind: TransactionKind;
  /** For the Undo menu and the custom editor's edit label: "Paste 3 × 2 cells". */
  readonly label: string;
  readonly changes: ApplyResult['changes'];
  /** New rows this step added (taken out again by its undo). */
  readonly addedRows?: readonly string[];
  /** New rows this step took out (put back, empty, before its cells, by its undo). */
  readonly removedRows?: readonly string[];
}

export interface EditOutcome {
  /** undefined when nothing changed (every value equal to the cell's, or every cell refused). */
  readonly transaction: Transaction | undefined;
  readonly refused: RefusedCell[];
  readonly released: ApplyResult['released'];
}

export interface UndoneStep {
  readonly transaction: Transaction;
  readonly released: ApplyResult['released'];
}

export class EditHistory {
  private readonly done: Transaction[] = [];
  private readonly undone: Transaction[] = [];

  constructor(
    private readonly changeSet: ChangeSet,
    /** Transactions kept for undo; the oldest go first. Unbounded by default (see above). */
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Applies `edits` as one transaction. */
  edit(kind: TransactionKind, label: string, edits: readonly CellEdit[]): EditOutcome {
    return this.record(kind, label, this.changeSet.apply(edits));
  }

  /** Discards every pending edit and new row, as one transaction that can be undone. */
  discardAll(): EditOutcome {
    const result = this.changeSet.discardAll();
    if (result.changes.length === 0 && result.removedRows.length === 0)
      return { transaction: undefined, refused: result.refused, released: result.released };
    return this.push({ kind: 'discard', label: 'Discard changes', changes: result.changes, removedRows: result.removedRows }, result);
  }

  /** Adds an empty new row (created at save), as one transaction. */
  addRow(label = 'Add row'): EditOutcome & { recordId: string } {
    const recordId = this.changeSet.nextNewRowId();
    this.changeSet.addRow(recordId);
    return { ...this.push({ kind: 'addRow', label, changes: [], addedRows: [recordId] }, { refused: [], released: [] }), recordId };
  }

  /**
   * Undoes the last transaction (only if it is `expected`, when given); `released` as for edit() (a marked
   * row whose edits went away).
   */
  undo(expected?: Transaction): UndoneStep | undefined {
    const transaction = this.done.at(-1);
    if (!transaction || (expected && expected !== transaction)) return undefined;
    this.done.pop();
    for (const recordId of transaction.removedRows ?? []) this.changeSet.addRow(recordId);
    const result = this.changeSet.apply(
      [...transaction.changes].reverse().map((change) => ({ recordId: change.recordId, field: change.field, value: change.before })),
    );
    for (const recordId of transaction.addedRows ?? []) this.changeSet.removeNewRow(recordId);
    this.undone.push(transaction);
    return { transaction, released: result.released };
  }

  redo(expected?: Transaction): UndoneStep | undefined {
    const transaction = this.undone.at(-1);
    if (!transaction || (expected && expected !== transaction)) return undefined;
    this.undone.pop();
    for (const recordId of transaction.addedRows ?? []) this.changeSet.addRow(recordId);
    const result = this.changeSet.apply(
      transaction.changes.map((change) => ({ recordId: change.recordId, field: change.field, value: change.after })),
    );
    for (const recordId of transaction.removedRows ?? []) this.changeSet.removeNewRow(recordId);
    this.done.push(transaction);
    return { transaction, released: result.released };
  }

  /** Forgets both stacks (the editor was reverted or reloaded from the portal). */
  clear(): void {
    this.done.length = 0;
    this.undone.length = 0;
  }

  private record(kind: TransactionKind, label: string, result: ApplyResult): EditOutcome {
    if (result.changes.length === 0) return { transaction: undefined, refused: result.refused, released: result.released };
    return this.push({ kind, label, changes: result.changes }, result);
  }

  private push(transaction: Transaction, result: Pick<ApplyResult, 'refused' | 'released'>): EditOutcome {
    this.done.push(transaction);
    if (this.done.length > this.limit) this.done.shift();
    this.undone.length = 0;
    return { transaction, refused: result.refused, released: result.released };
  }
}
