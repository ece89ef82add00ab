// The page's block actions (paste, fill down, clear) as plans over the grid's model, and what to tell the
// user about the cells a plan could not fill. Pure.
import type { GridBlock } from '../protocol';
import { planClear, planFillDown, planPaste, type BlockPlan, type CellRange, type PastePlan } from './blockEdits';
import type { TextOptions } from './cellText';
import type { TransactionKind } from './editHistory';
import type { GridModel } from './gridModel';

export type BlockMessage =
  | { type: 'grid/paste'; block: GridBlock; width: number; text: string }
  | { type: 'grid/fill'; block: GridBlock }
  | { type: 'grid/clear'; block: GridBlock };

function rangeOf(block: GridBlock): CellRange {
  return { top: block.top, bottom: block.bottom, left: 0, right: block.columns.length - 1 };
}

function cells(count: number): string {
  return `${count} cell${count === 1 ? '' : 's'}`;
}

/**
 * The plan of a block action over the page's columns (in its order), and its undo label. A paste's block
 * starts at the selection's first column and may reach to the right of it: the layout is every column the
 * page shows from there.
 */
export function planFor(
  model: GridModel,
  message: BlockMessage,
  pasteOptions: TextOptions,
): { kind: TransactionKind; label: string; plan: BlockPlan | PastePlan } {
  const layout = model.layout(message.block.columns);
  const range = rangeOf(message.block);
  switch (message.type) {
    case 'grid/paste': {
      const plan = planPaste(
        model.changeSet,
        layout,
        { ...range, right: Math.min(range.right, message.width - 1) },
        message.text,
        pasteOptions,
      );
      const rows = plan.range.bottom - plan.range.top + 1;
      const columns = plan.range.right - plan.range.left + 1;
      return { kind: 'paste', label: `Paste ${rows} × ${columns} cells`, plan };
    }
    case 'grid/fill':
      return { kind: 'fill', label: 'Fill down', plan: planFillDown(model.changeSet, layout, range) };
    case 'grid/clear':
      return {
        kind: 'clear',
        label: `Clear ${cells((range.bottom - range.top + 1) * message.block.columns.length)}`,
        plan: planClear(model.changeSet, layout, range),
      };
  }
}

/** One line on what a block action left out (cells that failed, rows or columns beyond the grid), or undefined. */
export function blockPlanMessage(plan: BlockPlan | PastePlan, refused: number): string | undefined {
  const parts: string[] = [];
  const first = plan.failed[0];
  if (first) parts.push(`${cells(plan.failed.length)} left as they were (first: "${first.text}" in ${first.field}: ${first.message})`);
  if (refused > 0) parts.push(`${cells(refused)} refused`);
  if ('cutOff' in plan && (plan.cutOff.rows > 0 || plan.cutOff.columns > 0))
    parts.push(`${plan.cutOff.rows} rows and ${plan.cutOff.columns} columns of the clipboard fell beyond the grid`);
  return parts.length === 0 ? undefined : `${parts.join('; ')}.`;
}
