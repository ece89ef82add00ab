import * as assert from 'node:assert/strict';
import { contentTypeOf, viewerOf } from '../../../src/attachments/contentTypes';

describe('attachment content types', () => {
  it('names the type of common files by extension, in any case, and octet-stream otherwise', () => {
    assert.equal(contentTypeOf('report.PDF'), 'application/pdf');
    assert.equal(contentTypeOf('photo.jpeg'), 'image/jpeg');
    assert.equal(contentTypeOf('notes.txt'), 'text/plain');
    assert.equal(contentTypeOf('data.bin'), 'application/octet-stream');
    assert.equal(contentTypeOf('Makefile'), 'application/octet-stream');
    assert.equal(contentTypeOf('.png'), 'application/octet-stream', 'a dot file has no extension');
  });

  it('opens text and images in VS Code, judging octet-stream by the name', () => {
    assert.equal(viewerOf('text/plain; charset=utf-8', 'a'), 'text');
    assert.equal(viewerOf('application/json', 'a'), 'text');
    assert.equal(viewerOf('image/png', 'a'), 'image');
    assert.equal(viewerOf('application/octet-stream', 'scan.png'), 'image');
    assert.equal(viewerOf(undefined, 'readme.md'), 'text');
    assert.equal(viewerOf('application/pdf', 'a.pdf'), undefined);
    assert.equal(viewerOf('application/octet-stream', 'data.bin'), undefined);
  });
});
