// Panels survive a reload of the window: VS Code keeps each panel's page state (the page saves it: the
// query's filters, the values entered in the form, and the panel's target that the host sent with its init
// message) and hands it back here. The state is checked like any message from a page; a panel whose state
// says nothing usable (from before this version) is closed, with one log line. A restored query panel
// shows its filters; its last result is run again when the user runs it.
import type * as vscode from 'vscode';
import { PANEL_VIEW_TYPES } from '../ids';
import { createLogger } from '../log';
import { checkMessage, restoredFormSchema, restoredQuerySchema } from '../shared/panelMessages';
import { RecordFormPanel } from './recordFormPanel';
import { ViewQueryPanel, type QueryPanelDeps } from './viewQueryPanel';

const log = createLogger('panels');

/** Opens the form again in `panel` from its saved state; false (and the panel closed) when it cannot. */
export function restoreForm(deps: QueryPanelDeps, panel: vscode.WebviewPanel, state: unknown): boolean {
  const checked = checkMessage(restoredFormSchema, state);
  if (!checked.ok) return forget(panel, checked.problem);
  RecordFormPanel.show(deps, checked.message.restore, undefined, { panel, state });
  return true;
}

/** Opens the query panel again in `panel` from its saved state; false (and the panel closed) when it cannot. */
export function restoreQuery(deps: QueryPanelDeps, panel: vscode.WebviewPanel, state: unknown): boolean {
  const checked = checkMessage(restoredQuerySchema, state);
  if (!checked.ok) return forget(panel, checked.problem);
  ViewQueryPanel.show(deps, checked.message.restore, { restored: { panel, state } });
  return true;
}

function forget(panel: vscode.WebviewPanel, problem: string): false {
  log.info(`A ${panel.viewType} panel kept no state to open again from (${problem}); it is closed.`);
  panel.dispose();
  return false;
}

/** The panel of either kind, from its saved state (the serializers of src/extension.ts load this module). */
export function restorePanel(deps: QueryPanelDeps, panel: vscode.WebviewPanel, state: unknown): boolean {
  return panel.viewType === PANEL_VIEW_TYPES.form ? restoreForm(deps, panel, state) : restoreQuery(deps, panel, state);
}
