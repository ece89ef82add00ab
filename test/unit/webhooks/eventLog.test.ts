import * as assert from 'node:assert/strict';
import { EventLog, type WebhookEvent } from '../../../src/webhooks/eventLog';

const event = (recordId: string): Omit<WebhookEvent, 'seq'> => ({
  receivedAt: new Date(),
  portalId: 'p',
  verdict: 'accepted',
  status: 204,
  signed: true,
  event: 'record.updated',
  appId: '1',
  recordId,
});

describe('the webhook event log', () => {
  it('keeps the newest first, up to its cap, numbering in arrival order', () => {
    const log = new EventLog(3);
    for (const id of ['1', '2', '3', '4', '5']) log.add(event(id));
    assert.deepEqual(
      log.list().map((entry) => entry.recordId),
      ['5', '4', '3'],
    );
    assert.deepEqual(
      log.list().map((entry) => entry.seq),
      [5, 4, 3],
    );
    assert.equal(log.get(5)?.recordId, '5');
    assert.equal(log.get(1), undefined, 'past the cap');
  });

  it('tells its listeners of additions, clearing and a smaller cap; a failing listener does not stop the others', () => {
    const log = new EventLog(10);
    let heard = 0;
    log.onDidChange(() => {
      throw new Error('listener failure');
    });
    const subscription = log.onDidChange(() => (heard += 1));
    log.add(event('1'));
    log.add(event('2'));
    log.setCap(1);
    assert.deepEqual(
      log.list().map((entry) => entry.recordId),
      ['2'],
    );
    log.setCap(5);
    log.clear();
    log.clear();
    assert.equal(heard, 4, 'two additions, one trim, one clear (not the no-op ones)');
    subscription.dispose();
    log.add(event('3'));
    assert.equal(heard, 4);
    assert.equal(log.list()[0].seq, 3, 'numbers are not reused after clearing');
  });

  it('keeps the bodies within a byte budget: the oldest bodies go first, their summary lines stay', () => {
    const log = new EventLog(200, 2_500);
    const big = (recordId: string): Omit<WebhookEvent, 'seq'> => ({ ...event(recordId), body: { text: 'x'.repeat(990) }, bytes: 1_000 });
    for (const id of ['1', '2', '3', '4']) log.add(big(id));
    assert.deepEqual(
      log.list().map((entry) => entry.recordId),
      ['4', '3', '2', '1'],
      'every delivery is still listed',
    );
    assert.deepEqual(
      log.list().map((entry) => entry.body !== undefined),
      [true, true, false, false],
      'only the two newest bodies fit',
    );
    assert.ok(
      log.list().every((entry) => entry.bytes === 1_000),
      'the size of a dropped body is still said',
    );
  });
});
