// npm test's terminal when suites run side by side (test/harness/terminal.mjs): a block of a suite that ran
// beside the live one never lands inside one of the live output's lines.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../webview/support/repo';

interface Terminal {
  live(chunk: string, isError?: boolean): void;
  endLive(): void;
  block(text: string): void;
}
interface Sink {
  write(text: string): void;
}

async function terminalWriting(): Promise<{ terminal: Terminal; out: string[]; err: string[] }> {
  const module = (await import(pathToFileURL(join(repoRoot(), 'test', 'harness', 'terminal.mjs')).href)) as {
    createTerminal(sinks: { out: Sink; err: Sink }): Terminal;
  };
  const out: string[] = [];
  const err: string[] = [];
  const terminal = module.createTerminal({ out: { write: (text) => out.push(text) }, err: { write: (text) => err.push(text) } });
  return { terminal, out, err };
}

describe("npm test's terminal for suites side by side", () => {
  it('writes a block between two lines of the live output, not inside one', async () => {
    const { terminal, out } = await terminalWriting();
    terminal.live('  ✔ first test\n  ✔ sec');
    terminal.block('▶ unit tests\nunit: 3 passed, 0 failed');
    terminal.live('ond test\n');
    assert.equal(out.join(''), '  ✔ first test\n▶ unit tests\nunit: 3 passed, 0 failed\n  ✔ second test\n');
  });

  it('ends the live output with its unfinished last line, on each stream', async () => {
    const { terminal, out, err } = await terminalWriting();
    terminal.live('integration: 2 passed, 0 failed');
    terminal.live('✘ a warn', true);
    terminal.live('ing\n✘ cut', true);
    terminal.endLive();
    terminal.block('after');
    assert.equal(out.join(''), 'integration: 2 passed, 0 failed\nafter\n');
    assert.equal(err.join(''), '✘ a warning\n✘ cut\n');
  });
});
