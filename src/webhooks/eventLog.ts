// The webhook deliveries received, newest first and capped, for the Webhook Events view, the status bar
// and the payload documents. No `vscode` import (its event has the shape of vscode.Event).
import type { DisposableLike } from '../lifecycle';
import type { Verdict } from './receiver';

export interface WebhookEvent {
  /** 1, 2, ... in arrival order; never reused while the extension runs. */
  readonly seq: number;
  readonly receivedAt: Date;
  readonly portalId: string;
  readonly verdict: Verdict;
  readonly status: number;
  readonly reason?: string;
  readonly signed: boolean;
  readonly event?: string;
  readonly appId?: string;
  readonly recordId?: string;
  readonly deliveryId?: string;
  /** The JSON object received (never kept for a refused delivery). */
  readonly body?: Readonly<Record<string, unknown>>;
}


export type Listener = () => void;

export class EventLog {
  private entries: WebhookEvent[] = [];
  private nextSeq = 1;
  private readonly listeners = new Set<Listener>();

  constructor(private cap: number) {}

  /** Fires after every change (an event added, the log cleared or trimmed). */
  readonly onDidChange = (listener: Listener): DisposableLike => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  add(event: Omit<WebhookEvent, 'seq'>): WebhookEvent {
    const entry: WebhookEvent = { ...event, seq: this.nextSeq++ };
    this.entries.unshift(entry);
    if (this.entries.length > this.cap) this.entries.length = this.cap;
    this.fire();
    return entry;
  }

  /** Newest first. */
  list(): readonly WebhookEvent[] {
    return this.entries;
  }

  get(seq: number): WebhookEvent | undefined {
    return this.entries.find((entry) => entry.seq === seq);
  }

  clear(): void {
    if (this.entries.length === 0) return;
    this.entries = [];
    this.fire();
  }

  setCap(cap: number): void {
    this.cap = cap;
    if (this.entries.length <= cap) return;
    this.entries.length = cap;
    this.fire();
  }

  dispose(): void {
    this.listeners.clear();
  }

  private fire(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure does not keep the others from hearing.
      }
    }
  }
}
