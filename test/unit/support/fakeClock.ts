// One fake clock for the unit tests of what waits (the portal's limiter, the watched views' scheduler, the
// webhook events' pacer): time moves only when a test says so, and nothing here really waits. It is
// each of their clocks (records/clock.ts Clock, PacerClock).

interface Timer {
  at: number;
  callback: () => void;
  id: number;
}

export class FakeClock {
  time = 0;
  private timers: Timer[] = [];
  private nextId = 1;

  /** `settleTurns`: how many turns of the event loop advance() gives the promises a timer settles. */
  constructor(private readonly settleTurns = 1) {}

  now = (): number => this.time;

  setTimeout(callback: () => void, ms: number): unknown {
    return this.add(callback, ms).id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Runs `run` after `ms`; the function returned cancels it (the pacer's clock). */
  schedule = (run: () => void, ms: number): (() => void) => {
    const { id } = this.add(run, ms);
    return () => this.clearTimeout(id);
  };

  /** Moves time on, running the timers due, and lets the promises they settle run. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (let due = this.nextDue(until); due; due = this.nextDue(until)) {
      this.run(due);
      await this.settle();
    }
    this.time = until;
    await this.settle();
  }

  /** Moves time on, running the timers due, without a turn of the event loop. */
  advanceNow(ms: number): void {
    const until = this.time + ms;
    for (let due = this.nextDue(until); due; due = this.nextDue(until)) this.run(due);
    this.time = until;
  }

  private add(callback: () => void, ms: number): Timer {
    const timer = { at: this.time + ms, callback, id: this.nextId++ };
    this.timers.push(timer);
    return timer;
  }

  private nextDue(until: number): Timer | undefined {
    return this.timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
  }

  private run(due: Timer): void {
    this.timers = this.timers.filter((timer) => timer !== due);
    this.time = due.at;
    due.callback();
  }

  private async settle(): Promise<void> {
    for (let turn = 0; turn < this.settleTurns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  }
}
