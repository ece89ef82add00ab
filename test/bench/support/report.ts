// What a benchmark file does with its figures: runBenchmark() prepares what it needs, runs it, and writes
// the rows for test/bench/run.mjs (or prints them when the file is run alone).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../webview/support/repo';

export interface BenchRow {
  measure: string;
  /** The figure as shown, with its unit: "412 ms". */
  value: string;
  target?: string;
  met?: boolean;
}

export interface BenchResult {
  title: string;
  rows: BenchRow[];
  notes?: string[];
  needs?: string[];
}

export type Need = 'webview' | 'integration';

export function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function prepare(needs: readonly Need[]): Promise<void> {
  const done = new Set((process.env.BENCH_PREPARED ?? '').split(',').filter(Boolean));
  const missing = needs.filter((need) => !done.has(need));
  if (missing.length === 0) return;
  const setup = (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'setup.mjs')).href)) as {
    setup(mode: string): Promise<void>;
  };
  for (const need of missing) await setup.setup(need);
}

export function runBenchmark(title: string, needs: readonly Need[], body: () => Promise<Omit<BenchResult, 'title' | 'needs'>>): void {
  const main = async (): Promise<void> => {
    await prepare(needs);
    const result: BenchResult = { title, needs: [...needs], ...(await body()) };
    const file = process.env.BENCH_RESULT_FILE;
    if (file) writeFileSync(file, JSON.stringify(result));
    else console.log(JSON.stringify(result, null, 2));
  };
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
