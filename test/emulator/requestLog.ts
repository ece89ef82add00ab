// The log of requests to the portal's API and OAuth endpoints (not /_emulator/), so tests can count
// requests per action. Paths and query strings only: bodies and headers (tokens) are never kept.

export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  /** The query string without `?`, "" when there is none. */
  query: string;
  /** 0 when the connection was dropped by a fault. */
  status: number;
  duration_ms: number;
  /** The kind of fault injected into this request, if any. */
  fault?: 'latency' | 'status' | 'drop' | 'drop-midway' | 'malformed' | 'lose_answer' | 'answer_delay' | 'rate_limit' | 'max_in_flight';
  time: string;
}

/** Oldest entries are forgotten beyond this, so a long benchmark run does not grow without bound. */
const CAPACITY = 100_000;

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;

  add(entry: Omit<LoggedRequest, 'seq' | 'time'>): LoggedRequest {
    const logged = { seq: ++this.seq, ...entry, time: new Date().toISOString() };
    this.entries.push(logged);
    if (this.entries.length > CAPACITY) this.entries.splice(0, this.entries.length - CAPACITY);
    return logged;
  }

  /** Entries after sequence number `seq` (all when 0). */
  since(seq: number): LoggedRequest[] {
    return this.entries.filter((entry) => entry.seq > seq);
  }

  /** Forgets the entries; sequence numbers keep growing so `since` stays meaningful. */
  clear(): void {
    this.entries = [];
  }
}

/** Splits a raw URL into its path and query string. */
export function splitUrl(url: string): { path: string; query: string } {
  const mark = url.indexOf('?');
  return mark < 0 ? { path: url, query: '' } : { path: url.slice(0, mark), query: url.slice(mark + 1) };
}

/** A request that starts this soon after another ended may still have been sent beside it. */
const SLACK_MS = 20;

/**
 * Sequential round trips in `requests`: those that overlap in time ran in parallel; one that started after
 * another ended waited for it. The longest such chain. With latencyMs at 200 every request lasts at least
 * 200 ms, so overlap and sequence are plain whatever the machine's speed: this counts, it does not time.
 */
export function sequentialRoundTrips(requests: ReadonlyArray<Pick<LoggedRequest, 'time' | 'duration_ms'>>): number {
  const spans = requests
    .map((request) => {
      const end = Date.parse(request.time);
      return { start: end - request.duration_ms, end };
    })
    .sort((a, b) => a.start - b.start);
  const chain = spans.map(() => 1);
  spans.forEach((span, index) => {
    for (let before = 0; before < index; before += 1) {
      if (spans[before].end <= span.start + SLACK_MS) chain[index] = Math.max(chain[index], chain[before] + 1);
    }
  });
  return Math.max(0, ...chain);
}
