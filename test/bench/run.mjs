// `npm run bench`: builds, runs every benchmark (out/test/bench/**/*.bench.js, each in its own node
// process) and prints one table of figures beside their targets. A benchmark, not a test: missed targets
// are shown (✘), and only `--strict` turns them into a non-zero exit code; a benchmark that crashes does.
//
//   node test/bench/run.mjs                  every benchmark
//   node test/bench/run.mjs viewQuery        those whose file name contains "viewQuery"
//   node test/bench/run.mjs --strict         exit 1 when a target is missed
//
// A benchmark file (test/bench/<name>.bench.ts) calls runBenchmark() from test/bench/support/report.ts,
// which writes its rows to the file named by BENCH_RESULT_FILE; `needs` there says what to prepare
// (`webview`: Chromium; `integration`: code-server too), through test/harness/setup.mjs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(root);
const args = process.argv.slice(2);
const strict = args.includes('--strict');
const filters = args.filter((arg) => !arg.startsWith('--'));
const RESULTS = join(root, 'test-results', 'bench');

function run(command, commandArgs, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function benchFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return benchFiles(path);
    return name.endsWith('.bench.js') ? [path] : [];
  });
}

function pad(text, width, right = false) {
  const value = String(text);
  return right ? value.padStart(width) : value.padEnd(width);
}

function table(results) {
  const header = ['benchmark', 'measure', 'value', 'target', 'met'];
  const lines = results.flatMap((result) =>
    result.rows.map((row) => [result.title, row.measure, row.value, row.target ?? '', row.met === undefined ? '' : row.met ? '✔' : '✘']),
  );
  const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => String(line[index]).length)));
  const format = (cells) => `| ${cells.map((cell, index) => pad(cell, widths[index], index === 2)).join(' | ')} |`;
  return [
    format(header),
    `|${widths.map((width, index) => (index === 2 ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`,
    ...lines.map(format),
  ].join('\n');
}

async function main() {
  if ((await run('node', ['esbuild.mjs'])) !== 0) throw new Error('The build failed.');
  const files = benchFiles(join(root, 'out', 'test', 'bench')).filter(
    (file) => filters.length === 0 || filters.some((filter) => basename(file).includes(filter)),
  );
  if (files.length === 0)
    throw new Error(`No benchmark found under out/test/bench${filters.length ? ` matching ${filters.join(', ')}` : ''}.`);
  mkdirSync(RESULTS, { recursive: true });
  const results = [];
  let crashed = 0;
  const prepared = new Set();
  for (const file of files.sort()) {
    const name = basename(file, '.bench.js');
    const resultFile = join(RESULTS, `${name}.json`);
    rmSync(resultFile, { force: true });
    console.log(`\n▶ ${relative(root, file)}`);
    const code = await run('node', [file], { BENCH_RESULT_FILE: resultFile, BENCH_PREPARED: [...prepared].join(',') });
    if (code !== 0 || !existsSync(resultFile)) {
      console.error(`✘ ${name} ended with exit code ${code} and no result.`);
      crashed += 1;
      continue;
    }
    const result = JSON.parse(readFileSync(resultFile, 'utf8'));
    for (const need of result.needs ?? []) prepared.add(need);
    results.push(result);
  }
  writeFileSync(join(RESULTS, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\n${table(results)}\n`);
  for (const result of results) for (const note of result.notes ?? []) console.log(`${result.title}: ${note}`);
  const missed = results.flatMap((result) => result.rows).filter((row) => row.met === false).length;
  console.log(
    `\n${results.length} benchmarks, ${missed} targets missed${crashed ? `, ${crashed} crashed` : ''} (results in ${relative(root, RESULTS)}/)`,
  );
  process.exit(crashed > 0 || (strict && missed > 0) ? 1 : 0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
