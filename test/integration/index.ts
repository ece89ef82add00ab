// The integration suite's entry point, loaded by VS Code's extension host (code-server or desktop VS Code)
// as extensionTestsPath: runs every out/test/integration/**/*.test.js (but those of packaged/, which test
// the installed .vsix and have their own entry point, packaged/index.ts) with mocha and reports through
// console.log, which reaches the harness (codeAutomationLog in code-server, stdout under Electron).
// Closes with `N passed, N failed`; the run fails (and the harness exits non-zero) when any test fails.
import Mocha from 'mocha';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BROWSER_TAG, driver } from './support/driver';

/** The harness shows the workbench's log from this line on (before it, only warnings and errors). */
const START_MARKER = 'Portal Explorer integration tests:';

/** Every *.test.js under `dir`; `skip` names folders left out (the packaged suite has its own entry point). */
export function testFiles(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return skip.includes(name) ? [] : testFiles(path, skip);
      return name.endsWith('.test.js') ? [path] : [];
    })
    .sort();
}

function countTests(suite: Mocha.Suite): number {
  return suite.tests.length + suite.suites.reduce((sum, child) => sum + countTests(child), 0);
}

function fullTitle(test: Mocha.Runnable): string {
  return test.titlePath().join(' › ');
}

export function run(): Promise<void> {
  return runFiles(testFiles(__dirname, ['packaged']));
}

/** Runs `files` with mocha, one console line per suite and test, closing with `N passed, N failed`. */
export function runFiles(files: readonly string[]): Promise<void> {
  // The Base reporter only counts: this file prints each line itself through console.log, because the
  // extension host forwards console.log (one string per call) but not process.stdout.
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: Number(process.env.PORTAL_TEST_TIMEOUT_MS ?? 30_000),
    color: false,
    reporter: Mocha.reporters.Base,
  });
  const grep = process.env.MOCHA_GREP;
  if (grep) mocha.grep(grep);
  if (!driver.available) {
    // Desktop VS Code (test:electron) has no browser driver: tests that need it are left out, and said so.
    mocha.grep(new RegExp(BROWSER_TAG.replace(/[[\]]/g, '\\$&'))).invert();
  }
  for (const file of files) mocha.addFile(file);
  console.log(`${START_MARKER} ${files.length} files`);

  return new Promise((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    const failures: string[] = [];
    const captured = new WeakSet<Mocha.Runnable>();
    const started = Date.now();
    const runner = mocha.run((failureCount) => {
      const settle = (): void => {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        console.log(`\n${passed} passed, ${failed} failed (${seconds} s)`);
        if (failureCount > 0) reject(new Error(`${failureCount} integration test(s) failed.`));
        else if (passed === 0) reject(new Error('No integration test ran: check MOCHA_GREP and the test files.'));
        else resolve();
      };
      // Not awaited: mocha's callback returns nothing; the suite settles once the last screenshot is taken or failed.
      void driver.screenshot('suite-end').then(settle, settle);
    });
    runner.on('test', (test) => {
      // A picture of the workbench at the moment a test fails, before its afterEach hooks tidy up:
      // the test's own function is wrapped as it starts (async and promise-returning tests only).
      const original = test.fn;
      if (!original || original.length > 0) return;
      test.fn = async function (this: Mocha.Context) {
        try {
          return await original.call(this, () => undefined);
        } catch (error) {
          captured.add(test);
          await driver.screenshot(`failed-${test.title}`).catch(() => undefined);
          throw error;
        }
      };
    });
    runner.on('suite', (suite) => {
      if (suite.title) console.log(`${'  '.repeat(suite.titlePath().length - 1)}${suite.title}`);
    });
    runner.on('pass', (test) => {
      passed += 1;
      console.log(`${'  '.repeat(test.titlePath().length - 1)}✔ ${test.title} (${test.duration ?? 0} ms)`);
    });
    runner.on('fail', (test, error: Error) => {
      failed += 1;
      console.log(`${'  '.repeat(Math.max(test.titlePath().length - 1, 0))}✘ ${test.title}`);
      failures.push(`${failures.length + 1}) ${fullTitle(test)}\n${error?.stack ?? String(error)}`);
      // Hooks and timed-out tests were not caught by the wrapper: a picture now is the best there is.
      if (!captured.has(test)) void driver.screenshot(`failed-${test.title}`).catch(() => undefined);
    });
    runner.on('end', () => {
      if (failures.length > 0) console.log(`\nFailures:\n\n${failures.join('\n\n')}`);
      if (!driver.available) {
        const leftOut = countTests(mocha.suite) - passed - failed;
        console.log(`\n(${leftOut} tests tagged ${BROWSER_TAG} need the browser driver of the code-server harness and were not run here)`);
      }
    });
  });
}
