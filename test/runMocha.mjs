// Runs one mocha suite in this node process and closes with the line `<suite>: N passed, N failed`.
//   node test/runMocha.mjs <suite> <folder of built tests> [--timeout ms] [--grep pattern]
import Mocha from 'mocha';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [suite, folder, ...rest] = process.argv.slice(2);
const option = (name) => {
  const index = rest.indexOf(name);
  return index >= 0 ? rest[index + 1] : undefined;
};

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [resolve(path)] : [];
  });
}

const files = testFiles(folder).sort();
if (files.length === 0) {
  console.log(`${suite}: no tests found under ${folder}`);
  process.exit(1);
}

const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: Number(option('--timeout') ?? 10000), color: !process.env.CI });
const grep = option('--grep') ?? process.env.MOCHA_GREP;
if (grep) mocha.grep(grep);
for (const file of files) mocha.addFile(file);

let passed = 0;
let failed = 0;
const runner = mocha.run();
runner.on('pass', () => (passed += 1));
runner.on('fail', () => (failed += 1));
runner.on('end', () => {
  console.log(`${suite}: ${passed} passed, ${failed} failed`);
  // Let open handles (servers a failing test left behind) not keep the process alive.
  setImmediate(() => process.exit(failed > 0 ? 1 : 0));
});
