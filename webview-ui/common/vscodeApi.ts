// The webview side of the host <-> panel channel. acquireVsCodeApi() may be called once per page, so the
// panels share this one handle; the message types come from src/shared/protocol.ts.

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
