// Links in a reference-heavy file (issue 33): a 10,000-line file with a reference on every line, two more
// on every other, an address and an extension link on every tenth, scanned as the link provider scans it
// on each change of a document (the patterns of three apps of two portals). Beside it, the least a scan
// could do: one bare regular expression counting the references. Medians of 20 scans after 5 to warm up.
import { findLinks } from '../../src/references/linksInText';
import { median, ms, runBenchmark } from './support/report';

const LINES = 10_000;
const SCANS = 20;
const TARGET_MS = 20;
const EXTENSION = 'portal-labs.portal-explorer';
const patterns = [
  { portalId: 'prod', appId: '201', template: 'TCK-{id}' },
  { portalId: 'prod', appId: '102', template: '#{id}' },
  { portalId: 'staging', appId: '7', template: 'ORD-{id}' },
];

function file(): string {
  const lines: string[] = [];
  for (let line = 0; line < LINES; line++) {
    const id = 100_000 + line;
    if (line % 2 === 1) lines.push(`  const value${line} = compute(TCK-${id}, #${line}, ORD-${id}); // not XTCK-${id}`);
    else if (line % 10 === 0)
      lines.push(`// See portal://prod/201/${id}.json and vscode://${EXTENSION}/open?portal=https%3A%2F%2Fp.example&app=201&record=${id}`);
    else lines.push(`  const value${line} = compute(input, ${line}); // TODO TCK-${id + 1}`);
  }
  return lines.join('\n');
}

runBenchmark('reference links, 10,000-line file', [], async () => {
  const text = file();
  let found = 0;
  for (let warm = 0; warm < 5; warm++) found = findLinks(text, patterns, EXTENSION).length;
  const times: number[] = [];
  for (let scan = 0; scan < SCANS; scan++) {
    const started = performance.now();
    found = findLinks(text, patterns, EXTENSION).length;
    times.push(performance.now() - started);
  }
  const value = median(times);
  const bare = /(?<![\p{L}\p{N}_])(?:TCK-|ORD-|#)[0-9]{1,15}(?![\p{L}\p{N}_])/gu;
  const bareTimes: number[] = [];
  for (let scan = 0; scan < SCANS + 5; scan++) {
    const started = performance.now();
    bare.lastIndex = 0;
    while (bare.test(text));
    if (scan >= 5) bareTimes.push(performance.now() - started);
  }
  return {
    rows: [
      {
        measure: 'scan for links (references, addresses, extension links)',
        value: ms(value),
        target: `≤ ${TARGET_MS} ms`,
        met: value <= TARGET_MS,
      },
      { measure: 'bare: one regular expression counting the references', value: ms(median(bareTimes)) },
    ],
    notes: [
      `${LINES.toLocaleString('en-US')} lines, ${(text.length / 1024).toFixed(0)} KB, ${found.toLocaleString('en-US')} links; median of ${SCANS} scans.`,
    ],
  };
});
