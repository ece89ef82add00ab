// The packaged suite's entry point (test/harness/runIntegration.mjs --packaged): the tests of this folder,
// run in the extension host of a code-server into which the .vsix was installed, with no extension under
// development.
import { runFiles, testFiles } from '../index';

export function run(): Promise<void> {
  return runFiles(testFiles(__dirname));
}
