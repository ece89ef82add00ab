// The terminal of `npm test` when suites run side by side: one live output streams, line by line; what
// runs beside it arrives as whole blocks, written only between two of the live output's lines, so that
// no line of one is cut by another. Node's own modules only (it runs before node_modules exists).

/** `out` and `err` are what to write to (process.stdout, process.stderr). */
export function createTerminal({ out, err }) {
  /** The live output's unfinished last line, per stream. */
  const pending = new Map([
    [out, ''],
    [err, ''],
  ]);
  return {
    /** A chunk of the live output: whole lines go out now, the unfinished rest with the next chunk. */
    live(chunk, isError = false) {
      const target = isError ? err : out;
      const text = pending.get(target) + chunk;
      const end = text.lastIndexOf('\n') + 1;
      if (end > 0) target.write(text.slice(0, end));
      pending.set(target, text.slice(end));
    },
    /** The live output ended: its unfinished last line goes out, ended. */
    endLive() {
      for (const [target, text] of pending) if (text) target.write(`${text}\n`);
      for (const target of pending.keys()) pending.set(target, '');
    },
    /** A whole block (of a task that ran beside), ended by a newline. */
    block(text) {
      out.write(text.endsWith('\n') ? text : `${text}\n`);
    },
  };
}
