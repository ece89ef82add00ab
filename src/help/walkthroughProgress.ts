// The context keys that complete the steps of the "Get started with Portal Explorer" walkthrough
// (package.json contributes.walkthroughs, completionEvents onContext:…): a portal connected, a portal
// signed in, a record saved, a view queried. The webhook step completes on portal.webhooks.running, which
// the receiver sets. VS Code remembers a completed step.
//
// VS Code's walkthrough service comes to life when a walkthrough is first shown, and a step whose
// onContext key is already true then is never checked off in that window (it waits for a change it has
// already seen). So opening the walkthrough through Portal Explorer clears the keys that are true, opens
// it, and sets them again: the service sees each step done as it happens.
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import type { RecordEvents } from '../catalog/recordEvents';
import { createLogger } from '../log';

export const WALKTHROUGH_CONTEXT = {
  connected: 'portal.connected',
  signedIn: 'portal.signedIn',
  recordSaved: 'portal.walkthrough.recordSaved',
  viewQueried: 'portal.walkthrough.viewQueried',
} as const;

type StepKey = keyof typeof WALKTHROUGH_CONTEXT;

const state = new Map<StepKey, boolean>();
const log = createLogger('walkthrough');

async function setContext(key: StepKey, value: boolean): Promise<void> {
  await vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT[key], value);
}

function set(key: StepKey, value: boolean): void {
  if (state.get(key) === value) return;
  state.set(key, value);
  // Not awaited: a context key settles on its own; nothing waits for the walkthrough's tick.
  void setContext(key, value);
}

/** Marks a step done (a record saved, a view queried). */
export function markWalkthroughStep(step: 'recordSaved' | 'viewQueried'): void {
  if (state.get(step) !== true) log.debug(`step done: ${step}`);
  set(step, true);
}

/** Runs `open` (which shows the walkthrough) between clearing and setting again the keys that are true. */
export async function showingWalkthrough(open: () => Thenable<unknown>): Promise<void> {
  const done = [...state].filter(([, value]) => value).map(([key]) => key);
  for (const key of done) await setContext(key, false);
  try {
    await open();
  } finally {
    for (const key of done) await setContext(key, state.get(key) === true);
  }
}

/** Keeps portal.connected and portal.signedIn current, from the moment the portals are read. */
export function trackWalkthroughProgress(portals: Portals): vscode.Disposable {
  let ready = false;
  const update = (): void => {
    if (!ready) return;
    const connections = portals.list();
    const connected = connections.length > 0;
    const signedIn = connections.some((connection) => portals.state(connection.id) === 'signedIn');
    set('connected', connected);
    set('signedIn', signedIn);
  };
  // Not awaited: the steps check once the portals are read; activation does not wait for it.
  void portals.ready().then(() => {
    ready = true;
    update();
  });
  return portals.onDidChange(update);
}

/** Marks a record saved from this window. */
export function trackRecordSaves(recordEvents: RecordEvents): vscode.Disposable {
  return recordEvents.onDidChange((change) => {
    if (change.origin === 'local' && change.kind === 'updated') markWalkthroughStep('recordSaved');
  });
}
