// Injected faults (POST /_emulator/faults): latency, an answer held back, a status code, a dropped connection, a malformed body
// or a lost answer (the request is applied, then the connection drops before the response), for the next N
// requests to the portal's API that match a method and a path pattern.

export interface Fault {
  id: string;
  /** Regular expression tested against the path (without the query string). */
  path?: string;
  method?: string;
  /** Requests still to hit; -1 = every matching request until DELETE /_emulator/faults. */
  remaining: number;
  latency_ms?: number;
  /** The request is carried out at once, and its answer (as it was then) sent this much later. */
  answer_delay_ms?: number;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  drop?: boolean;
  /** Answers normally but destroys the connection once this many bytes of the body have gone. */
  drop_after_bytes?: number;
  malformed?: boolean;
  /** The request is carried out, then the connection is destroyed instead of answering. */
  lose_answer?: boolean;
}

export class FaultError extends Error {}

function optional<T>(value: unknown, ok: (v: unknown) => boolean, message: string): T | undefined {
  if (value === undefined) return undefined;
  if (!ok(value)) throw new FaultError(message);
  return value as T;
}

const isInteger = (min: number, max: number) => (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

export class Faults {
  private faults: Fault[] = [];
  private compiled = new Map<string, RegExp>();
  private nextId = 1;

  /** Checks and adds a fault from its JSON description. */
  add(spec: unknown): Fault {
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw new FaultError('Send a JSON object describing the fault.');
    const s = spec as Record<string, unknown>;
    const known = [
      'path',
      'method',
      'count',
      'latency_ms',
      'answer_delay_ms',
      'status',
      'body',
      'headers',
      'drop',
      'drop_after_bytes',
      'malformed',
      'lose_answer',
    ];
    const unknown = Object.keys(s).find((key) => !known.includes(key));
    if (unknown) throw new FaultError(`Unknown fault key ${unknown}; known: ${known.join(', ')}.`);
    const path = optional<string>(s.path, (v) => typeof v === 'string', 'path must be a regular expression as a string.');
    let regex: RegExp | undefined;
    if (path !== undefined) {
      try {
        regex = new RegExp(path);
      } catch {
        throw new FaultError(`path ${path} is not a valid regular expression.`);
      }
    }
    const method = optional<string>(s.method, (v) => typeof v === 'string' && /^[A-Za-z]+$/.test(v), 'method must be an HTTP method.');
    const count =
      optional<number>(
        s.count,
        (v) => v === -1 || isInteger(1, 1_000_000)(v),
        'count must be a whole number >= 1, or -1 for every matching request.',
      ) ?? 1;
    const fault: Fault = {
      id: String(this.nextId++),
      path,
      method: method?.toUpperCase(),
      remaining: count,
      latency_ms: optional(s.latency_ms, isInteger(0, 600_000), 'latency_ms must be a whole number 0-600000.'),
      answer_delay_ms: optional(s.answer_delay_ms, isInteger(0, 600_000), 'answer_delay_ms must be a whole number 0-600000.'),
      status: optional(s.status, isInteger(100, 599), 'status must be an HTTP status 100-599.'),
      body: s.body,
      headers: optional(
        s.headers,
        (v) => typeof v === 'object' && v !== null && Object.values(v).every((h) => typeof h === 'string'),
        'headers must be an object of strings.',
      ),
      drop: optional(s.drop, (v) => typeof v === 'boolean', 'drop must be true or false.'),
      malformed: optional(s.malformed, (v) => typeof v === 'boolean', 'malformed must be true or false.'),
      drop_after_bytes: optional(
        s.drop_after_bytes,
        isInteger(1, Number.MAX_SAFE_INTEGER),
        'drop_after_bytes must be a whole number >= 1.',
      ),
      lose_answer: optional(s.lose_answer, (v) => typeof v === 'boolean', 'lose_answer must be true or false.'),
    };
    const dropsMidway = fault.drop_after_bytes !== undefined;
    const effects = [
      fault.latency_ms !== undefined,
      fault.answer_delay_ms !== undefined,
      fault.status !== undefined,
      fault.drop === true,
      fault.malformed === true,
      dropsMidway,
      fault.lose_answer === true,
    ].filter(Boolean).length;
    if (effects === 0)
      throw new FaultError('Give at least one of latency_ms, answer_delay_ms, status, drop, drop_after_bytes, malformed, lose_answer.');
    if (fault.answer_delay_ms !== undefined && (fault.drop || fault.status !== undefined || fault.malformed || fault.lose_answer)) {
      throw new FaultError('answer_delay_ms holds a normal answer back; do not combine it with drop, status, malformed or lose_answer.');
    }
    if (dropsMidway && (fault.drop || fault.status !== undefined || fault.malformed))
      throw new FaultError('drop_after_bytes cuts a normal answer; do not combine it with drop, status or malformed.');
    if (fault.lose_answer && (fault.drop || fault.status !== undefined || fault.malformed || dropsMidway)) {
      throw new FaultError('lose_answer applies the request and answers nothing; combine it with latency_ms only.');
    }
    if (fault.drop && (fault.status !== undefined || fault.malformed))
      throw new FaultError('drop cannot be combined with status or malformed.');
    if (fault.status !== undefined && fault.malformed) throw new FaultError('malformed answers 200; do not combine it with status.');
    if (fault.body !== undefined && fault.status === undefined) throw new FaultError('body goes with status.');
    if (regex) this.compiled.set(fault.id, regex);
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.faults = [];
    this.compiled.clear();
  }

  /** The first fault matching this request, counted as used. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.faults.find((candidate) => {
      if (candidate.method && candidate.method !== method) return false;
      const regex = this.compiled.get(candidate.id);
      return !regex || regex.test(path);
    });
    if (!fault) return undefined;
    if (fault.remaining > 0 && --fault.remaining === 0) {
      this.faults = this.faults.filter((candidate) => candidate !== fault);
      this.compiled.delete(fault.id);
    }
    return fault;
  }
}
