// Where the browser's answer (the redirect with code and state) comes back to: the extension's URI handler
// or a one-shot loopback listener. Both look the same to the flow.
export interface RedirectReceiver {
  /** The redirect_uri to send to the authorize endpoint (and again to the token endpoint). */
  readonly redirectUri: string;
  /** Resolves with the URL the browser was redirected to; rejects when `signal` aborts. */
  wait(signal: AbortSignal): Promise<string>;
  /** Stops listening (idempotent). */
  dispose(): void;
}

/** Rejects as soon as `signal` aborts (with its reason), so a wait can race it. */
export function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
