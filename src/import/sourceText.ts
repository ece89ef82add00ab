// Bytes of an import file to text. A byte-order mark says the encoding (UTF-8, UTF-16 LE or BE), as
// spreadsheet programs write it; without one the file must be UTF-8. Anything else is refused with the
// way out, rather than read as mojibake that would then be sent to the portal.
import { TextDecoder } from 'node:util';

export type SourceEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export class SourceEncodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceEncodingError';
  }
}

/** The encoding its first bytes announce; UTF-8 when there is no byte-order mark. */
export function encodingOf(start: Uint8Array): SourceEncoding {
  if (start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf) return 'utf-8';
  if (start[0] === 0xff && start[1] === 0xfe) return 'utf-16le';
  if (start[0] === 0xfe && start[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** Bytes to text chunks; the byte-order mark is dropped, characters split across chunks are kept whole. */
export async function* decodeText(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let head: Uint8Array = new Uint8Array(0);
  let offset = 0;
  const decode = (chunk: Uint8Array, stream: boolean): string => {
    decoder ??= new TextDecoder(encodingOf(chunk), { fatal: true });
    try {
      const text = decoder.decode(chunk, { stream });
      offset += chunk.length;
      return text;
    } catch {
      throw new SourceEncodingError(
        `The file is not valid UTF-8 near byte ${offset}: save it as UTF-8 (or UTF-16, or UTF-8 with a byte-order mark) and import it again.`,
      );
    }
  };
  for await (const chunk of bytes) {
    // Three bytes decide the encoding: a first chunk shorter than that waits for the next.
    if (!decoder && head.length + chunk.length < 3) {
      head = concat(head, chunk);
      continue;
    }
    const text = decode(decoder ? chunk : concat(head, chunk), true);
    if (text) yield text;
  }
  const rest = decode(decoder ? new Uint8Array(0) : head, false);
  if (rest) yield rest;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
