// Waiting for what the workbench and the extension do asynchronously, with a time limit and a message
// that says what was awaited, instead of sleeping for a guessed time.
import type * as vscode from 'vscode';

export interface WaitForOptions {
  /** 10 000 ms unless given. */
  timeoutMs?: number;
  /** 50 ms unless given. */
  intervalMs?: number;
  /** What is awaited, for the error: "the tree to show 3 sites". */
  message?: string;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls `probe` until it returns something other than undefined, null or false (or stops throwing) and
 * resolves with that value; rejects after the time limit with the last error or value seen.
 */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: WaitForOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 50, message = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let last = 'it never held';
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
      last = `last value: ${String(value)}`;
    } catch (error) {
      last = `last error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${message} (${last}).`);
    await sleep(intervalMs);
  }
}

/** The next firing of `event` that passes `accept`; rejects after the time limit. */
export function waitForEvent<T>(
  event: vscode.Event<T>,
  accept: (value: T) => boolean = () => true,
  options: WaitForOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, message = 'an event' } = options;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${message}.`));
    }, timeoutMs);
    const subscription = event((value) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    });
  });
}
