// The context keys that complete the steps of the "Get started with Portal Explorer" walkthrough
// (package.json contributes.walkthroughs, completionEvents onContext:…): a portal connected, a portal
// signed in, a record saved, a view queried. The webhook step completes on portal.webhooks.running, which
// the receiver sets. A completed step stays completed (VS Code remembers it), so the keys only need to
// become true once in a window.
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import type { RecordEvents } from '../catalog/recordEvents';

export const WALKTHROUGH_CONTEXT = {
  connected: 'portal.connected',
  signedIn: 'portal.signedIn',
  recordSaved: 'portal.walkthrough.recordSaved',
  viewQueried: 'portal.walkthrough.viewQueried',
} as const;

type StepKey = 'recordSaved' | 'viewQueried';

const done = new Set<StepKey>();

/** Marks a step done: sets its context key once per window. */
export function markWalkthroughStep(step: StepKey): void {
  if (done.has(step)) return;
  done.add(step);
  void vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT[step], true);
}

/** Keeps portal.connected and portal.signedIn current, and marks a record saved from this window. */
export function trackWalkthroughProgress(portals: Portals, recordEvents: RecordEvents): vscode.Disposable {
  let last = '';
  const update = (): void => {
    const connections = portals.list();
    const connected = connections.length > 0;
    const signedIn = connections.some((connection) => portals.state(connection.id) === 'signedIn');
    const now = `${connected}/${signedIn}`;
    if (now === last) return;
    last = now;
    void vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT.connected, connected);
    void vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT.signedIn, signedIn);
  };
  update();
  return vscode.Disposable.from(
    portals.onDidChange(update),
    recordEvents.onDidChange((change) => {
      if (change.origin === 'local' && change.kind === 'updated') markWalkthroughStep('recordSaved');
    }),
  );
}
