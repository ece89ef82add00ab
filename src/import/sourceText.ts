// Bytes of an import file to text. A byte-order mark says the encoding (UTF-8, UTF-16 LE or BE), as
// spreadsheet programs write it; without one the file must be UTF-8. Anything else (UTF-32, whose mark
// would otherwise pass for UTF-16 LE's, or bytes that are not UTF-8) is refused with the way out, rather
// than read as mojibake that would then be sent to the portal.
import { TextDecoder } from 'node:util';

export type SourceEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export class SourceEncodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceEncodingError';
  }
}

const NAMES: Record<SourceEncoding, string> = { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16', 'utf-16be': 'UTF-16' };

/** The encoding its first bytes announce; UTF-8 when there is no byte-order mark. UTF-32 is refused. */
export function encodingOf(start: Uint8Array): SourceEncoding {
  const utf32 =
    (start[0] === 0xff && start[1] === 0xfe && start[2] === 0 && start[3] === 0) ||
    (start[0] === 0 && start[1] === 0 && start[2] === 0xfe && start[3] === 0xff);
  if (utf32)
    throw new SourceEncodingError(
      'The file is UTF-32 (its byte-order mark says so), which spreadsheet programs do not write: save it as UTF-8 (or UTF-16) and import it again.',
    );
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
  let name = NAMES['utf-8'];
  const decode = (chunk: Uint8Array, stream: boolean): string => {
    if (!decoder) {
      const encoding = encodingOf(chunk);
      name = NAMES[encoding];
      decoder = new TextDecoder(encoding, { fatal: true });
    }
    try {
      const text = decoder.decode(chunk, { stream });
      offset += chunk.length;
      return text;
    } catch {
      throw new SourceEncodingError(
        `The file is not valid ${name} near byte ${offset}: save it as UTF-8 (or UTF-16, or UTF-8 with a byte-order mark) and import it again.`,
      );
    }
  };
  for await (const chunk of bytes) {
    // Four bytes decide the encoding (UTF-32's mark is four): a first chunk shorter than that waits for the next.
    if (!decoder && head.length + chunk.length < 4) {
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
