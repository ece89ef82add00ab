import * as assert from 'node:assert/strict';
import { imagePage } from '../../../src/attachments/imagePage';

describe('the image panel page', () => {
  it('allows data: images and its own style only, and runs no script', () => {
    const page = imagePage({ fileName: 'a.png', dataUri: 'data:image/png;base64,AAAA', size: 3 });
    const csp = /content="(default-src 'none'; img-src data:; style-src 'nonce-([^']+)';)"/.exec(page);
    assert.ok(csp, page);
    assert.ok(page.includes(`<style nonce="${csp[2]}">`));
    assert.ok(!/<script/i.test(page));
    assert.ok(page.includes('<img src="data:image/png;base64,AAAA" alt="a.png">'));
    assert.ok(page.includes('a.png · 3 bytes'));
  });

  it('shows a file name as text, never as markup', () => {
    const page = imagePage({ fileName: '"><script>alert(1)</script>.png', dataUri: 'data:image/png;base64,AAAA', size: 1 });
    assert.ok(!page.includes('<script>'));
    assert.ok(page.includes('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;.png'));
  });

  it('makes a new nonce for every page', () => {
    const nonce = (page: string) => /nonce-([^']+)'/.exec(page)?.[1];
    const image = { fileName: 'a.png', dataUri: 'data:image/png;base64,AAAA', size: 3 };
    assert.notEqual(nonce(imagePage(image)), nonce(imagePage(image)));
  });
});
