// Error bodies the emulator does not produce (its three styles are tested against it in client.test.ts):
// what a real portal or a proxy in front of it may send instead.
import * as assert from 'node:assert/strict';
import { portalMessageOf, redactSecrets } from '../../../src/api/errorBody';

const read = (body: string, type: string | null = 'application/json') => portalMessageOf(Buffer.from(body), type);

describe('error bodies of other shapes', () => {
  it('reads {message}, {error: sentence}, {errors: [...]} and a bare list', () => {
    assert.deepEqual(read('{"message":"Bad date","code":"E12","field":"f3"}'), { message: 'Bad date', code: 'E12', field: 'f3' });
    assert.deepEqual(read('{"error":"Something broke badly"}'), { message: 'Something broke badly', code: undefined, field: undefined });
    assert.deepEqual(read('{"errors":[{"message":"f2 is required","field":"f2"}]}'), {
      message: 'f2 is required',
      code: undefined,
      field: 'f2',
    });
    assert.deepEqual(read('["first problem","second"]'), { message: 'first problem', code: undefined, field: undefined });
    assert.deepEqual(read('{"error":{"code":404,"description":"No such record"}}'), {
      message: 'No such record',
      code: '404',
      field: undefined,
    });
  });

  it('reads an HTML page by its title, or its text', () => {
    assert.equal(
      read('<html><head><title>502 Bad Gateway</title></head><body><h1>x</h1></body></html>', 'text/html').message,
      '502 Bad Gateway',
    );
    assert.equal(read('<html><body><p>Down &amp; out</p><script>var a=1</script></body></html>', 'text/html').message, 'Down & out');
  });

  it('shortens long text to one line and tolerates broken or empty JSON', () => {
    const long = read(`line one\n${'x'.repeat(1000)}`, 'text/plain').message ?? '';
    assert.ok(long.length <= 300 && !long.includes('\n'));
    assert.equal(read('{"error": "unterminated').message, '{"error": "unterminated');
    assert.deepEqual(read(''), {});
    assert.deepEqual(read('{}'), { message: undefined, code: undefined, field: undefined });
    assert.deepEqual(read('null'), { message: undefined, code: undefined, field: undefined });
  });

  it('redacts known secrets and anything shaped like a credential', () => {
    assert.equal(redactSecrets('token tok_12345 was refused', ['tok_12345', undefined]), 'token <redacted> was refused');
    assert.equal(redactSecrets('header Bearer abcdefgh12345 bad', []), 'header Bearer <redacted> bad');
  });
});
