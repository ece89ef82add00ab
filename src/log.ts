// The "Portal Explorer" log channel: one LogOutputChannel for the whole extension, one named logger per
// part. Lines pass through redact() so that a token, a secret or an Authorization header can never reach
// the channel even if a caller slips.
import * as vscode from 'vscode';
import type { RequestLogEntry } from './api/http';

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const CHANNEL_NAME = 'Portal Explorer';
/** Recent lines kept in memory, so the integration tests can check what was (and was not) logged. */
const RECENT_LIMIT = 2000;

let channel: vscode.LogOutputChannel | undefined;
const recent: string[] = [];
/** Lines logged since the extension host started: a mark that stays right once old lines leave `recent`. */
let logged = 0;

const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/(authorization\s*[:=]\s*)(bearer|basic)\s+[^\s,;"']+/gi, '$1$2 <redacted>'],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 <redacted>'],
  [/\b(access_token|refresh_token|client_secret|code_verifier|code|secret|password)(["']?\s*[:=]\s*["']?)[^\s&"',;}]+/gi, '$1$2<redacted>'],
];

/** Removes anything that looks like a credential from a log line. */
export function redact(line: string): string {
  return SECRET_PATTERNS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), line);
}

/** Creates the channel once; the returned disposable closes it. */
export function initLogging(): vscode.Disposable {
  channel ??= vscode.window.createOutputChannel(CHANNEL_NAME, { log: true });
  const created = channel;
  return new vscode.Disposable(() => {
    created.dispose();
    if (channel === created) channel = undefined;
  });
}

export function showLog(): void {
  channel?.show(true);
}

export function recentLogLines(): readonly string[] {
  return recent;
}

/** Where the log is now, for recentLogLinesSince (an index into `recent` goes wrong once it is full). */
export function logMark(): number {
  return logged;
}

/** The lines logged after `mark` (those still kept). */
export function recentLogLinesSince(mark: number): readonly string[] {
  return recent.slice(Math.max(0, recent.length - (logged - mark)));
}

/**
 * The log line of one HTTP request to a portal: `GET /api/v1/app/101/record/1 200 12 ms`. Only the
 * method, the path (never the query string), the status and the time: no header, body or token.
 */
export function requestLine(entry: RequestLogEntry): string {
  return `${entry.method} ${entry.path} ${entry.status} ${entry.durationMs} ms`;
}

/** An `onRequest` hook for the portal client and the OAuth calls: one info line per request. */
export function requestLogger(log: Logger, portal: string): (entry: RequestLogEntry) => void {
  return (entry) => log.info(`${portal}: ${requestLine(entry)}`);
}

export function createLogger(name: string): Logger {
  const write = (level: keyof Logger, message: string): void => {
    const line = redact(`[${name}] ${message}`);
    recent.push(`${level}: ${line}`);
    logged += 1;
    if (recent.length > RECENT_LIMIT) recent.splice(0, recent.length - RECENT_LIMIT);
    channel?.[level](line);
  };
  return {
    trace: (message) => write('trace', message),
    debug: (message) => write('debug', message),
    info: (message) => write('info', message),
    warn: (message) => write('warn', message),
    error: (message) => write('error', message),
  };
}
