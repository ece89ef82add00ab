// The journal on its own: what a resumed run learns from it, what it refuses, a line cut off by a crash.
import * as assert from 'node:assert/strict';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Journal, JournalMismatchError, journalPathFor } from '../../../src/import/journal';
import type { ViewRead } from '../../../src/api/client';
import type { Operation } from '../../../src/import/plan';
import { lineText, type Line } from '../../../src/import/journalLines';
import { runOperations, type RecordWriter } from '../../../src/import/runner';
import { tempFolder } from './support';

const JOB = { kind: 'import', appId: '101', source: 'customers.csv', sourceHash: 'a'.repeat(64) };

describe('import: the journal', () => {
  const folder = tempFolder();
  let count = 0;
  const path = (): string => join(folder.path, `journal-${(count += 1)}.jsonl`);

  it("writes each row's lines as JSON.stringify would, whatever their text holds", () => {
    const awkward = 'a "quoted", back\\slashed\nline\ttab \u0001 é 😀 \ud800 end';
    const lines: Exclude<Line, { type: 'header' }>[] = [
      { type: 'attempt', row: 1 },
      { type: 'attempt', row: 12, lookup: { field: 'f11', value: 'Order 12, oak' } },
      { type: 'attempt', row: 13, lookup: { field: 'f11', value: awkward } },
      { type: 'withdrawn', row: 14 },
      { type: 'outcome', row: 15, outcome: 'created', recordId: '1234' },
      { type: 'outcome', row: 16, outcome: 'failed', reason: awkward },
      { type: 'outcome', row: 17, outcome: 'uncertain', recordId: '7', reason: 'records 7, 8 all have f11 = x' },
      { type: 'outcome', row: 18, outcome: 'unchanged' },
    ];
    for (const line of lines) {
      const text = lineText(line);
      assert.equal(text, JSON.stringify(line), `row ${line.row}`);
      assert.deepEqual(JSON.parse(text), line);
    }
  });

  it('records attempts and outcomes as JSON lines, and a reopened journal resumes the same run', async () => {
    const file = path();
    const first = await Journal.open(file, JOB);
    assert.equal(first.resumed, false);
    await first.attempt(2, { field: 'f2', value: 'Acme' });
    await first.record({ row: 2, outcome: 'created', recordId: '13' });
    await first.attempt(3, { field: 'f2', value: 'Beta' }); // sent, then the process died
    await first.record({ row: 4, outcome: 'failed', reason: 'f9: expected DD-MM-YYYY' });
    await first.close();
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    assert.deepEqual(
      lines.map((line) => line.type),
      ['header', 'attempt', 'outcome', 'attempt', 'outcome'],
    );

    const again = await Journal.open(file, JOB);
    assert.equal(again.resumed, true);
    assert.equal(again.runId, first.runId, 'the run keeps its id');
    assert.equal(again.isFinished(2), true);
    assert.equal(again.outcomeOf(2)?.recordId, '13');
    assert.equal(again.unfinishedAttempt(2), undefined);
    assert.deepEqual(again.unfinishedAttempt(3)?.lookup, { field: 'f2', value: 'Beta' }, 'a create sent without an answer is looked for');
    assert.equal(again.isFinished(4), false, 'failed rows are tried again');
    assert.deepEqual(again.counts(), { created: 1, updated: 0, unchanged: 0, deleted: 0, failed: 1, uncertain: 0 });
    await again.close();
  });

  it('looks for a create sent again after an earlier failure, when its answer never came', async () => {
    const file = path();
    const first = await Journal.open(file, JOB);
    await first.attempt(5, { field: 'f2', value: 'Acme' });
    await first.record({ row: 5, outcome: 'failed', reason: 'the portal kept failing' });
    await first.close();
    const second = await Journal.open(file, JOB);
    assert.equal(second.unfinishedAttempt(5), undefined, 'a failed row with no attempt after it is sent without a look-up');
    await second.attempt(5, { field: 'f2', value: 'Acme' }); // sent again, then the process died
    assert.deepEqual(second.unfinishedAttempt(5)?.lookup, { field: 'f2', value: 'Acme' }, 'in this run too');
    await second.close();
    const third = await Journal.open(file, JOB);
    assert.deepEqual(third.unfinishedAttempt(5)?.lookup, { field: 'f2', value: 'Acme' }, 'the attempt after the failure is looked for');
    assert.equal(third.isFinished(5), false);
    await third.withdraw(5);
    assert.equal(third.unfinishedAttempt(5), undefined, 'a withdrawn attempt is not');
    await third.close();
  });

  it('a resumed run looks for a create sent after a failure before it sends it again', async () => {
    const file = path();
    const first = await Journal.open(file, JOB);
    await first.attempt(5, { field: 'f2', value: 'Acme' });
    await first.record({ row: 5, outcome: 'failed', reason: 'the portal kept failing' });
    await first.attempt(5, { field: 'f2', value: 'Acme' }); // the next run's create, sent; its answer lost to a crash
    await first.close();
    const journal = await Journal.open(file, JOB);
    let creates = 0;
    let lookups = 0;
    const writer: RecordWriter = {
      createRecord: async () => ({ id: String((creates += 1)), data: {} }),
      readRecord: async () => assert.fail('the runner reads no record'),
      updateRecord: async () => undefined,
      deleteRecord: async () => undefined,
      readView: async () => {
        lookups += 1;
        return { rows: [{ id: '77', values: { f2: 'Acme' } }] } as unknown as ViewRead;
      },
    };
    async function* operations(): AsyncIterable<Operation> {
      yield { kind: 'create', row: 5, data: { f2: 'Acme' }, lookup: { field: 'f2', value: 'Acme' } };
    }
    const summary = await runOperations(operations(), { appId: '101', writer, journal, lookupView: { viewId: '1', columns: [] } });
    await journal.close();
    assert.deepEqual([creates, lookups, summary.counts.created], [0, 1, 1], 'found, not created twice');
    assert.equal(journal.outcomeOf(5)?.recordId, '77');
  });

  it('refuses a journal of another version of the source, of another job, or not a journal at all', async () => {
    const file = path();
    await (await Journal.open(file, JOB)).close();
    await assert.rejects(Journal.open(file, { ...JOB, sourceHash: 'b'.repeat(64) }), (error: Error) => {
      assert.ok(error instanceof JournalMismatchError);
      assert.match(error.message, /belongs to another version of customers\.csv: the file changed since the import started/);
      assert.match(error.message, /delete the journal to start a new one/);
      return true;
    });
    await assert.rejects(Journal.open(file, { ...JOB, appId: '102' }), /belongs to another job \(import into app 101\)/);
    const other = path();
    await writeFile(other, 'Name,Email\n');
    await assert.rejects(Journal.open(other, JOB), /is not a Portal Explorer journal/);
  });

  it('drops a last line cut off by a crash, and starts the next line on a line of its own', async () => {
    const file = path();
    const journal = await Journal.open(file, JOB);
    await journal.record({ row: 2, outcome: 'created', recordId: '1' });
    await journal.close();
    await appendFile(file, '{"type":"outcome","row":3,"outc');
    const resumed = await Journal.open(file, JOB);
    assert.equal(resumed.isFinished(3), false);
    await resumed.record({ row: 3, outcome: 'created', recordId: '2' });
    await resumed.close();
    const reopened = await Journal.open(file, JOB);
    assert.equal(reopened.outcomeOf(3)?.recordId, '2');
    assert.equal(reopened.outcomeOf(2)?.recordId, '1', 'the lines before the cut one are read too');
    await reopened.close();
  });

  it('keeps the order of lines written by concurrent requests', async () => {
    const journal = await Journal.open(path(), JOB);
    await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        index % 2 === 0 ? journal.attempt(index) : journal.record({ row: index - 1, outcome: 'created', recordId: String(index) }),
      ),
    );
    await journal.close();
    const lines = (await readFile(journal.path, 'utf8'))
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { type: string; row: number });
    assert.equal(lines.length, 200);
    lines.forEach((line, index) => assert.equal(line.row, index % 2 === 0 ? index : index - 1));
  });

  it('writes an outcome line on its own soon after, and one still waiting when it closes', async () => {
    const journal = await Journal.open(path(), JOB);
    await journal.record({ row: 2, outcome: 'created', recordId: '7' }); // nothing else comes: written all the same
    assert.match(await readFile(journal.path, 'utf8'), /"row":2,"outcome":"created"/);
    // Not awaited: the line must still be waiting when close() comes, which is what this test is about.
    void journal.record({ row: 3, outcome: 'created', recordId: '8' });
    await journal.close();
    assert.match(await readFile(journal.path, 'utf8'), /"row":3,"outcome":"created"/);
  });

  it('lives beside the source, or in a folder under a name unique to the source path', () => {
    assert.equal(journalPathFor('/data/orders.csv'), '/data/orders.csv.portal-journal.jsonl');
    const a = journalPathFor('/a/orders.csv', '/store');
    const b = journalPathFor('/b/orders.csv', '/store');
    assert.match(a, /^\/store\/orders\.csv-[0-9a-f]{12}\.portal-journal\.jsonl$/);
    assert.notEqual(a, b);
  });
});
