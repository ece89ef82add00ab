// The webhook deliveries received, newest first and capped (by count, and the bodies kept by total size:
// 200 deliveries of up to 1 MB each would otherwise hold 200 MB), for the Webhook Events view, the status bar
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
  /** The JSON object received (never kept for a refused delivery; dropped, oldest first, past the byte budget). */
  readonly body?: Readonly<Record<string, unknown>>;
  /** The size of the body as received, in bytes. */
  readonly bytes?: number;
}

/** The bytes of bodies kept at most, over all events. */
export const BODY_BUDGET_BYTES = 16 * 1024 * 1024;

export type Listener = () => void;

export class EventLog {
  private entries: WebhookEvent[] = [];
  private nextSeq = 1;
  private readonly listeners = new Set<Listener>();

  constructor(
    private cap: number,
    private readonly bodyBudget = BODY_BUDGET_BYTES,
  ) {}

  /** Fires after every change (an event added, the log cleared or trimmed). */
  readonly onDidChange = (listener: Listener): DisposableLike => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  add(event: Omit<WebhookEvent, 'seq'>): WebhookEvent {
    const entry: WebhookEvent = { ...event, seq: this.nextSeq++ };
    this.entries.unshift(entry);
    if (this.entries.length > this.cap) this.entries.length = this.cap;
    this.trimBodies();
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

  /** Drops the oldest bodies until the kept ones fit the budget; their summary lines stay. */
  private trimBodies(): void {
    let kept = 0;
    this.entries = this.entries.map((entry) => {
      if (entry.body === undefined) return entry;
      kept += entry.bytes ?? 0;
      if (kept <= this.bodyBudget) return entry;
      const { body: _dropped, ...summary } = entry;
      return summary;
    });
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
