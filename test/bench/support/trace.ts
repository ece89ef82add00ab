// A performance trace of a page in Chromium (the DevTools protocol's Tracing domain), for finding what a
// long task of the panel is made of: BENCH_TRACE=1 makes viewScaling.bench.ts record one per size, write it
// to test-results/bench/ (open it in DevTools' Performance panel) and note the longest main-thread tasks
// with what took most of each.
import { writeFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { functionName?: string; url?: string; type?: string } };
}

export interface Tracing {
  /** Stops tracing, writes the trace to `file`, and describes the `count` longest tasks of the page's main thread. */
  stop(file: string, count?: number): Promise<string[]>;
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'].join(',');

export async function startTracing(page: Page): Promise<Tracing> {
  const session = await page.context().newCDPSession(page);
  await session.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReturnAsStream' });
  return { stop: (file, count = 5) => stop(session, file, count) };
}

async function stop(session: CDPSession, file: string, count: number): Promise<string[]> {
  const complete = new Promise<string>((resolve) => session.once('Tracing.tracingComplete', (event) => resolve(event.stream ?? '')));
  await session.send('Tracing.end');
  const stream = await complete;
  let text = '';
  for (;;) {
    const chunk = await session.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await session.send('IO.close', { handle: stream });
  await session.detach();
  writeFileSync(file, text);
  const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return longestTasks(Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []), count);
}

/** The longest RunTask events of the thread that ran the page's script, each with its largest parts. */
function longestTasks(events: readonly TraceEvent[], count: number): string[] {
  const scripts = events.filter((event) => event.name === 'FunctionCall' || event.name === 'EvaluateScript');
  const main = scripts[0] ? { pid: scripts[0].pid, tid: scripts[0].tid } : undefined;
  if (!main) return ['no script ran on a main thread in the trace'];
  const onMain = events.filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur !== undefined);
  const tasks = onMain.filter((event) => event.name === 'RunTask').sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
  return tasks.slice(0, count).map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const parts = new Map<string, number>();
    for (const event of onMain) {
      if (event === task || event.ts < task.ts || event.ts >= end || event.name === 'RunTask') continue;
      const name =
        event.name === 'FunctionCall'
          ? `FunctionCall ${event.args?.data?.functionName || '(anonymous)'}`
          : event.name === 'EventDispatch'
            ? `EventDispatch ${event.args?.data?.type ?? ''}`
            : event.name;
      parts.set(name, Math.max(parts.get(name) ?? 0, event.dur ?? 0));
    }
    const top = [...parts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, duration]) => `${name} ${(duration / 1000).toFixed(1)}`)
      .join(', ');
    return `${((task.dur ?? 0) / 1000).toFixed(1)} ms (${top})`;
  });
}
