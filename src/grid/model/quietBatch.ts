// Gathers keys that arrive in a burst (the records of an import or a bulk change, announced one by one) and
// hands them over once the burst has been quiet for a while: one view read for the lot, not one per record.
// One hand-over at a time: keys arriving while it runs wait for the next.

/** How long an import's or a bulk change's records must stop coming before an open grid reads its view again. */
export const BULK_QUIET_MS = 500;

export class QuietBatch {
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly quietMs: number,
    private readonly flush: (keys: readonly string[]) => Promise<void>,
  ) {}

  add(key: string): void {
    if (this.disposed) return;
    this.pending.add(key);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), this.quietMs);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.pending.clear();
  }

  private run(): void {
    this.timer = undefined;
    if (this.running || this.pending.size === 0) {
      // The hand-over under way ends first; what came meanwhile goes after it.
      if (this.running && this.pending.size > 0) void this.running.then(() => this.run());
      return;
    }
    const keys = [...this.pending];
    this.pending.clear();
    // Not awaited: a timer's callback; flush reports its own failures.
    this.running = this.flush(keys).finally(() => (this.running = undefined));
  }
}
