// The harness's stand-in for VS Code's transport of host messages (PanelPage.post): in order, each a
// message event of its own, the host not waiting for the page between two; a message posted before the
// page listens waits for it. The panels' tests and the benches rely on this.
import * as assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium, PanelPage, PanelServer } from './support/panelPage';

interface ProbeWindow {
  __hostDeliver(json: string): void;
  __seen?: number[];
  addEventListener(type: 'message', listener: (event: { data: { n: number } }) => void): void;
}

describe("the host's messages into a panel (webview harness)", function () {
  this.timeout(30_000);
  let browser: Browser;
  const server = new PanelServer();
  let panel: PanelPage | undefined;
  before(async () => {
    await server.start();
    browser = await launchChromium();
  });
  afterEach(async () => {
    await panel?.close();
    panel = undefined;
  });
  after(async () => {
    await browser?.close();
    await server.stop();
  });

  it('delivers them in order, each a message event, all sent before the page has handled the first', async () => {
    panel = await PanelPage.open(browser, server, 'recordForm', {
      initScript: () => {
        const win = globalThis as unknown as ProbeWindow;
        win.addEventListener('message', (event) => (win.__seen ??= []).push(event.data.n));
      },
    });
    let handled = 0;
    const posted = Array.from({ length: 50 }, (_, n) => panel?.post({ type: 'probe/n', n }).then(() => (handled += 1)));
    assert.equal(handled, 0, 'post() hands the message over and returns');
    await Promise.all(posted);
    await panel.delivered();
    assert.deepEqual(
      await panel.page.evaluate(() => (globalThis as unknown as ProbeWindow).__seen),
      Array.from({ length: 50 }, (_, n) => n),
    );
  });

  it('holds what comes before the page listens, and delivers it first, in order', async () => {
    panel = await PanelPage.open(browser, server, 'recordForm', {
      // Before any listener: as a message the host posted while the page was still loading.
      initScript: () => {
        const win = globalThis as unknown as ProbeWindow;
        win.__hostDeliver(JSON.stringify({ type: 'probe/n', n: 0 }));
        win.__hostDeliver(JSON.stringify({ type: 'probe/n', n: 1 }));
        win.addEventListener('message', (event) => (win.__seen ??= []).push(event.data.n));
      },
    });
    await panel.post({ type: 'probe/n', n: 2 });
    assert.deepEqual(await panel.page.evaluate(() => (globalThis as unknown as ProbeWindow).__seen), [0, 1, 2]);
  });
});
