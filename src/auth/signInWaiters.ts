// The sign-ins waiting for the browser's answer through the URI handler, by the state each one sent.
// No `vscode` import: unit-tested in plain node.
import { AUTH_PATH } from './authPath';

export class SignInWaiters {
  private readonly waiting: Array<{ state: string; deliver(url: string): void }> = [];

  /** Registers a sign-in's state; the returned function removes it (idempotent). */
  add(state: string, deliver: (url: string) => void): () => void {
    const entry = { state, deliver };
    this.waiting.push(entry);
    return () => {
      const index = this.waiting.indexOf(entry);
      if (index >= 0) this.waiting.splice(index, 1);
    };
  }

  /** Hands an answer (the /auth link's query and fragment) to its sign-in; false when none took it. */
  deliver(query: string, fragment: string): boolean {
    // Read where parseRedirect reads: the query, else the fragment. An answer naming no waiting sign-in
    // is dropped, not handed to one: any web page can open the /auth link, and would fail that sign-in.
    const state = new URLSearchParams(query || fragment).get('state');
    const target = this.waiting.find((entry) => entry.state === state);
    if (!target) return false;
    this.waiting.splice(this.waiting.indexOf(target), 1);
    // Only the query and fragment matter to the flow; a neutral base keeps the URL parser happy.
    target.deliver(`http://uri-handler.invalid${AUTH_PATH}?${query}${fragment ? `#${fragment}` : ''}`);
    return true;
  }
}
