import * as assert from 'node:assert/strict';
import { Disposable } from '../../src/lifecycle';

class Part extends Disposable {
  own(name: string, log: string[]): void {
    this._register({ dispose: () => log.push(name) });
  }
}

describe('the Disposable base', () => {
  it('disposes what a part registered once, the last registered first', () => {
    const log: string[] = [];
    const part = new Part();
    part.own('listener', log);
    part.own('emitter', log);
    part.dispose();
    part.dispose();
    assert.deepEqual(log, ['emitter', 'listener']);
  });

  it('disposes at once what is registered after the part was disposed', () => {
    const log: string[] = [];
    const part = new Part();
    part.dispose();
    part.own('late', log);
    assert.deepEqual(log, ['late']);
  });
});
