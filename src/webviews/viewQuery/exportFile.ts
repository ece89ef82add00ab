// Writes an export's lines to a file as they are made, so that a million rows never exist as one string:
// lines are gathered into pieces of about 1 MB and written with the stream's back-pressure respected, so
// memory stays flat whatever the row count. A cancelled or failed export leaves no half-written file.
// Plain node: no vscode.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';

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
  let piece = '';
  let written = 0;
  const put = async (text: string): Promise<void> => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  try {
    for (const line of lines) {
      piece += line;
      written += 1;
      if (piece.length >= PIECE_CHARS) {
        await put(piece);
        piece = '';
      }
      if (written % every === 0) await progress.onLines?.(written);
    }
    if (piece) await put(piece);
    stream.end();
    await once(stream, 'finish');
    return written;
  } catch (error) {
    stream.destroy();
    await rm(path, { force: true });
    throw error;
  }
}
