// The steps of the "Get started with Portal Explorer" walkthrough (package.json contributes.walkthroughs)
// are checked off by their outcome, however the user reached it: the call-back URL copied (or a portal
// connected, which needs the registration), a portal connected, a portal signed in, a record saved, a
// view queried, the webhook receiver running (from the walkthrough, the palette, the status bar or at
// startup).
//
// VS Code's walkthrough service comes to life when something first asks for it, and its completion
// events are one-shot per window: a step whose onContext key is already true when the service registers
// it is never checked off, nor is a command run before it existed. So each outcome marks its step done
// through the workbench's own "welcome.markStepComplete" (kept done across windows), and also sets its
// context key (the completionEvents in package.json, for a workbench without that command). Opening the
// walkthrough through Portal Explorer still clears and sets again the keys that are true.
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import type { RecordEvents } from '../catalog/recordEvents';
import { createLogger } from '../log';

/** The walkthrough's id in package.json (contributes.walkthroughs). */
export const WALKTHROUGH_ID = 'getStarted';

export const WALKTHROUGH_CONTEXT = {
  callbackCopied: 'portal.walkthrough.callbackCopied',
  connected: 'portal.connected',
  signedIn: 'portal.signedIn',
  recordSaved: 'portal.walkthrough.recordSaved',
  viewQueried: 'portal.walkthrough.viewQueried',
  webhookStarted: 'portal.walkthrough.webhookStarted',
} as const;

type StepKey = keyof typeof WALKTHROUGH_CONTEXT;

/** The steps (package.json ids) each outcome completes. */
const STEPS_DONE_BY: Record<StepKey, readonly string[]> = {
  callbackCopied: ['register'],
  connected: ['register', 'addPortal'],
  signedIn: ['signIn'],
  recordSaved: ['openRecord'],
  viewQueried: ['queryView'],
  webhookStarted: ['webhooks'],
};

const state = new Map<StepKey, boolean>();
const log = createLogger('walkthrough');
/** `<extension id>#getStarted`, the prefix of the step ids the workbench knows; set at activation. */
let walkthrough: string | undefined;

/** Checks the outcome's steps off in the workbench; a workbench without the command keeps the keys' way. */
function markStepsDone(key: StepKey): void {
  if (!walkthrough) return;
  for (const step of STEPS_DONE_BY[key]) {
    Promise.resolve(vscode.commands.executeCommand('welcome.markStepComplete', `${walkthrough}#${step}`)).catch((error: unknown) =>
      log.debug(`welcome.markStepComplete ${step}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

async function setContext(key: StepKey, value: boolean): Promise<void> {
  await vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT[key], value);
}

function set(key: StepKey, value: boolean): void {
  if (state.get(key) === value) return;
  state.set(key, value);
  // Not awaited: a context key settles on its own; nothing waits for the walkthrough's tick.
  void setContext(key, value);
  if (value) markStepsDone(key);
}

/** Marks an outcome reached (the call-back URL copied, a record saved, a view queried, the receiver started). */
export function markWalkthroughStep(step: 'callbackCopied' | 'recordSaved' | 'viewQueried' | 'webhookStarted'): void {
  if (state.get(step) === true) markStepsDone(step);
  else log.debug(`step done: ${step}`);
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
export function trackWalkthroughProgress(portals: Portals, extensionId: string): vscode.Disposable {
  walkthrough = `${extensionId}#${WALKTHROUGH_ID}`;
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
    // A person's save, not each record of an import or a bulk change (thousands of commands for one step).
    if (change.origin === 'local' && change.kind === 'updated' && change.source !== 'import' && change.source !== 'bulk')
      markWalkthroughStep('recordSaved');
  });
}

/** Marks the webhook receiver started, however it was (its command, the status bar, autoStart). */
export function trackWebhookStarts(webhooks: { onDidChangeState: vscode.Event<void>; state(): { kind: string } }): vscode.Disposable {
  return webhooks.onDidChangeState(() => {
    if (webhooks.state().kind === 'running') markWalkthroughStep('webhookStarted');
  });
}
