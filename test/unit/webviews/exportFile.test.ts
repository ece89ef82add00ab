// Export lines go to the file as they are made: memory does not grow with the row count, and a cancelled
// export leaves no file behind.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { writeLines } from '../../../src/webviews/viewQuery/exportFile';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function* lines(count: number): Generator<string> {
  for (let index = 0; index < count; index += 1) yield `${index},"Printer does not start in Berlin",01-02-2024 10:15,${index * 3}\r\n`;
}

describe('exporting to a file', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'portal-export-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('writes 500,000 lines (30 MB) with memory that does not grow with them', async () => {
    const path = join(folder, 'rows.csv');
    gc();
    const before = process.memoryUsage();
    const peaks = [0, 0]; // the first half of the lines, the second half
    const written = await writeLines(path, lines(500_000), {
      every: 50_000,
      onLines: (count) => {
        gc(); // what is still held, not garbage waiting for a collection
        const now = process.memoryUsage();
        const half = count <= 250_000 ? 0 : 1;
        peaks[half] = Math.max(peaks[half], now.heapUsed + now.external - before.heapUsed - before.external);
      },
    });
    const peak = Math.max(...peaks);
    assert.ok(
      peaks[1] < peaks[0] + 4_000_000,
      `flat: ${(peaks[0] / 1e6).toFixed(1)} MB in the first half, ${(peaks[1] / 1e6).toFixed(1)} MB in the second`,
    );
    assert.equal(written, 500_000);
    const size = statSync(path).size;
    assert.ok(size > 25_000_000, `${size} bytes`);
    assert.ok(peak < size / 3, `memory grew by ${(peak / 1e6).toFixed(1)} MB for a ${(size / 1e6).toFixed(1)} MB file`);
    const text = readFileSync(path, 'utf8');
    assert.ok(text.startsWith('0,"Printer does not start in Berlin",01-02-2024 10:15,0\r\n1,'));
    assert.ok(text.endsWith(`499999,"Printer does not start in Berlin",01-02-2024 10:15,${499_999 * 3}\r\n`));
  });

  it('rejects, and leaves no file, when the file cannot be opened (a folder that does not exist)', async () => {
    const path = join(folder, 'missing', 'rows.csv');
    let reported = 0;
    // Between two progress reports the stream has failed: the export must end with its error, not wait forever.
    await assert.rejects(
      // Short lines: all of them fit in one piece, written only after the stream has failed.
      writeLines(
        path,
        Array.from({ length: 25_000 }, (_, index) => `row ${index}\n`),
        {
          every: 10_000,
          onLines: async () => {
            reported += 1;
            await new Promise((resolve) => setImmediate(resolve));
          },
        },
      ),
      /ENOENT/,
    );
    assert.ok(reported <= 2, `${reported} progress reports`);
    assert.equal(existsSync(path), false, 'no file left');
  });

  it('removes the file when the export is stopped midway', async () => {
    const path = join(folder, 'stopped.csv');
    await assert.rejects(
      writeLines(path, lines(100_000), {
        every: 1_000,
        onLines: (count) => {
          if (count === 50_000) throw new Error('stopped');
        },
      }),
      /stopped/,
    );
    assert.equal(existsSync(path), false);
  });
});
