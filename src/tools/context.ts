// The context keys the tools' when clauses (package.json contributes.languageModelTools) read, owned by the
// tools: the walkthrough's portal.connected is cleared for a moment each time the walkthrough opens (to
// check its steps off again), which would hide the tools meanwhile. No vscode here: the caller sets keys.

/** True while a portal is connected; set once the connections are read, and whenever they change. */
export const TOOLS_CONNECTED_CONTEXT = 'portal.tools.connected';
/**
 * Set once the connections are read. Until then (Portal Explorer not started in this window yet) the when
 * clauses show the tools: a call starts it, and the tool answers what it finds. Activation stays on first
 * use: waiting for startup to learn whether a portal is connected would cost every window.
 */
export const PORTALS_READ_CONTEXT = 'portal.portalsRead';

/** What the keys follow (PortalService has it). */
export interface ConnectionsSource {
  ready(): Promise<void>;
  onDidChange(listener: () => void): { dispose(): void };
  list(): readonly unknown[];
}

/** Keeps the keys current; `set` sets a context key (not awaited: a key settles on its own). */
export function trackToolsContext(portals: ConnectionsSource, set: (key: string, value: boolean) => void): { dispose(): void } {
  let ready = false;
  let connected: boolean | undefined;
  const update = (): void => {
    if (!ready) return;
    const now = portals.list().length > 0;
    if (now === connected) return;
    connected = now;
    set(TOOLS_CONNECTED_CONTEXT, now);
  };
  const subscription = portals.onDidChange(update);
  // Not awaited: activation does not wait for the connections; the keys follow once they are read.
  void portals.ready().then(() => {
    ready = true;
    update();
    // After the key above: the tools are never hidden between the two.
    set(PORTALS_READ_CONTEXT, true);
  });
  return subscription;
}
