// Writes an export's lines to a file as they are made, so that a million rows never exist as one string:
// lines are gathered into pieces of about 1 MB and written through a pipeline, which respects the stream's
// back-pressure (memory stays flat whatever the row count) and turns any failure of the file (it cannot be
// opened, the disk is full) into a rejection instead of an export waiting forever for a 'drain' that never
// comes. A cancelled or failed export leaves no half-written file. Plain node: no vscode.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const PIECE_CHARS = 1 << 20;

export interface WriteProgress {
  /** Called every `every` lines; throw (e.g. a cancellation) to stop the export. */
  onLines?: (written: number) => void | Promise<void>;
  every?: number;
}

/** Writes `lines` to the file at `path`; resolves with the number of lines written. */
export async function writeLines(path: string, lines: Iterable<string>, progress: WriteProgress = {}): Promise<number> {
  const stream = createWriteStream(path, { encoding: 'utf8' });
  const every = progress.every ?? 10_000;
  let written = 0;
  async function* pieces(): AsyncGenerator<string> {
    let piece = '';
    for (const line of lines) {
      piece += line;
      written += 1;
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = '';
      }
      if (written % every === 0) await progress.onLines?.(written);
    }
    if (piece) yield piece;
  }
  try {
    // Opened before any line is made: a file that cannot be written fails the export at once.
    await once(stream, 'open');
    await pipeline(Readable.from(pieces()), stream);
    return written;
  } catch (error) {
    stream.destroy();
    await rm(path, { force: true });
    throw error;
  }
}
