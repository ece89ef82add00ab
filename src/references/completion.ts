// Completion of references (issue 33), the part without `vscode`: where a reference is being typed (an
// app's prefix just before the cursor, and the word typed after it), and the records opened lately.
import type { RecordTarget } from '../model/targets';
import { referencePrefix, type ReferencePattern } from './patterns';

const RECENT_KEPT = 20;

export interface TypedReference {
  readonly pattern: ReferencePattern;
  /** Where the prefix starts in the line. */
  readonly start: number;
  /** What follows the prefix up to the cursor: digits of an id, or a word of a title. */
  readonly typed: string;
}

/** Records opened lately, newest first (record documents opening), kept per window. */
export class RecentRecords {
  private readonly records: RecordTarget[] = [];

  opened(record: RecordTarget): void {
    const at = this.records.findIndex(
      (seen) => seen.portalId === record.portalId && seen.appId === record.appId && seen.recordId === record.recordId,
    );
    if (at >= 0) this.records.splice(at, 1);
    this.records.unshift(record);
    this.records.length = Math.min(this.records.length, RECENT_KEPT);
  }

  of(portalId: string, appId: string): RecordTarget[] {
    return this.records.filter((record) => record.portalId === portalId && record.appId === appId);
  }
}

/** Every pattern whose prefix stands just before the word at the end of `line` (the text before the cursor). */
export function typedAfterPrefix(line: string, patterns: readonly ReferencePattern[]): TypedReference[] {
  const found: TypedReference[] = [];
  const typed = /[\p{L}\p{N}_]*$/u.exec(line)?.[0] ?? '';
  for (const pattern of patterns) {
    const prefix = referencePrefix(pattern);
    const before = line.slice(0, line.length - typed.length);
    if (prefix === '' || !before.endsWith(prefix)) continue;
    const start = before.length - prefix.length;
    // A reference stands alone (as findReferences reads them): `XTCK-` and `a#` are no prefixes.
    if (start > 0 && /[\p{L}\p{N}_]/u.test(line[start - 1])) continue;
    found.push({ pattern, start, typed });
  }
  return found;
}
