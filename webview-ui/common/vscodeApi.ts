// The webview side of the host <-> panel channel. acquireVsCodeApi() may be called once per page, so the
// panels share this one handle; the message types come from src/shared/protocol.ts.
import { isMessage } from '../../src/shared/protocol';

interface VsCodeApi<State> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare function acquireVsCodeApi<State>(): VsCodeApi<State>;

let api: VsCodeApi<unknown> | undefined;

export function vscodeApi<State>(): VsCodeApi<State> {
  api ??= acquireVsCodeApi<unknown>();
  return api as VsCodeApi<State>;
}

/** One panel's end of the channel, typed by what it receives (In), sends (Out) and keeps (State). */
export interface Channel<In, Out, State> {
  post(message: Out): void;
  /** Messages from the host whose type starts with one of `prefixes` (e.g. "form/"). */
  onMessage(handler: (message: In) => void): void;
  /** What the page kept before it was hidden (VS Code keeps it while the panel lives). */
  state(): Partial<State>;
  saveState(state: State): void;
  /** Keeps the host's `restore` (the panel's target) in the page's state from now on: after a reload of
   *  the window, VS Code hands that state to the host, which opens the panel again from it. */
  keep(restore: unknown, pageState?: unknown): void;
}

export function channel<In, Out, State>(...prefixes: string[]): Channel<In, Out, State> {
  const vscode = vscodeApi<State & { restore?: unknown }>();
  let restore: unknown;
  return {
    post: (message) => vscode.postMessage(message),
    onMessage: (handler) =>
      window.addEventListener('message', (event: MessageEvent<unknown>) => {
        if (isMessage(event.data, ...prefixes)) handler(event.data as In);
      }),
    state: () => vscode.getState() ?? {},
    saveState: (state) => vscode.setState({ ...state, ...(restore === undefined ? {} : { restore }) }),
    keep: (next, pageState) => {
      if (vscode.getState() === undefined && typeof pageState === 'object' && pageState !== null)
        vscode.setState(pageState as State & { restore?: unknown });
      restore = next ?? vscode.getState()?.restore;
      if (restore !== undefined) vscode.setState({ ...(vscode.getState() ?? ({} as State)), restore });
    },
  };
}
