// Every panel in the states a person meets it in, audited by axe-core in each theme VS Code ships for
// accessibility checks (Light Modern, Dark Modern, High Contrast Dark, High Contrast Light): zero
// violations, each failure named by rule, element and what was measured. The same panels at 200% zoom and
// at the sidebar's narrowest width: nothing overlapping, nothing cut off without a way to reach it.
// Screenshots of each go to test-results/screenshots/webview-audit-*.png.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Column } from '../../src/api/types';
import { imagePage } from '../../src/attachments/imagePage';
import { optionWarnings } from '../../src/import/panelState';
import type { FormInitMessage } from '../../src/shared/protocol';
import { ORDERS, TICKETS } from '../emulator/seed';
import { axeViolations, layoutProblems } from './support/audit';
import { GridHost } from './support/gridHost';
import { importFixture, type ImportFixture } from './support/importFixture';
import { BoardHost } from './support/boardHost';
import { PanelPage, THEMES, themedHtml, type OpenOptions, type ThemeName } from './support/panelPage';
import { QueryHost } from './support/queryHost';
import { repoRoot } from './support/repo';
import { usePanelEnvironment } from './support/suite';

/** A panel opened in one of its states; close() ends it. */
interface Scene {
  page: Page;
  close(): Promise<void>;
}

type Open = (options: OpenOptions & { theme: ThemeName }) => Promise<Scene>;

/** 1100 × 800 at 200% zoom is 550 × 400 CSS pixels: the page reflows, it does not scroll across. */
const ZOOMED = { viewport: { width: 550, height: 400 }, deviceScaleFactor: 2, reflow: true };
/** VS Code's side bar is at least 170 pixels wide: what does not fit may scroll, nothing may be lost. */
const NARROW = { viewport: { width: 170, height: 600 }, reflow: false };

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('every panel passes axe-core in every theme, at 200% zoom and in the narrow side bar (webview)', function () {
  const environment = usePanelEnvironment();
  let ticketColumns: Column[] = [];
  let imports: ImportFixture;
  let open: Scene | undefined;

  before(async () => {
    ticketColumns = await environment().client.listColumns(TICKETS);
    imports = await importFixture(environment().client);
  });

  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  const panel = (handle: PanelPage): Scene => ({ page: handle.page, close: () => handle.close() });

  const scenes: Record<string, Open> = {
    'create form': async (options) => {
      const form = await PanelPage.open(environment().browser, environment().server, 'recordForm', options);
      await form.send({
        type: 'form/init',
        appName: 'Tickets',
        portalLabel: 'Demo portal',
        columns: ticketColumns,
        offerDraft: true,
      } satisfies FormInitMessage);
      await form.page.waitForSelector('.field');
      return panel(form);
    },
    'create form with errors': async (options) => {
      const form = await PanelPage.open(environment().browser, environment().server, 'recordForm', options);
      await form.send({
        type: 'form/init',
        appName: 'Tickets',
        portalLabel: 'Demo portal',
        columns: ticketColumns.map((column) => ({ ...column, required: '1' })),
        offerDraft: false,
      } satisfies FormInitMessage);
      await form.page.waitForSelector('.field');
      await form.page.click('#create');
      await form.page.waitForSelector('.field-error:not(:empty)');
      return panel(form);
    },
    'Query View before Run': async (options) => {
      const host = await QueryHost.open(environment().browser, environment().server, environment().client, {
        appId: TICKETS,
        viewId: '6',
        viewName: 'All tickets',
        ...options,
      });
      await host.settled();
      return { page: host.panel.page, close: () => host.close() };
    },
    'Query View after Run': async (options) => {
      const host = await QueryHost.open(environment().browser, environment().server, environment().client, {
        appId: TICKETS,
        viewId: '6',
        viewName: 'All tickets',
        ...options,
      });
      await host.panel.page.click('#run');
      await host.panel.page.waitForSelector('.grid-body [role="row"]');
      await host.settled();
      return { page: host.panel.page, close: () => host.close() };
    },
    'editable grid with pending edits, invalid cells and a conflict': async (options) => {
      const host = await GridHost.open(environment().browser, environment().server, environment().client, {
        appId: ORDERS,
        viewId: '3',
        ...options,
      });
      const page = host.panel.page;
      await page.waitForSelector('#grid-0-1');
      const [first, second, third] = host.model.layout([]).rowIds;
      const edits = [
        { recordId: first, field: 'f11', value: 'Pending title' },
        { recordId: second, field: 'f17', value: 'lots' },
      ];
      host.model.history.edit('edit', 'Edit', edits);
      await host.sendRows([first, second]);
      await host.send({
        type: 'grid/rows',
        rows: [{ ...host.model.rowState(third), conflict: 'Changed on the portal: Status, a field you changed too' }],
      });
      await host.panel.delivered();
      await page.waitForSelector('.grid-cell.invalid');
      // Focused, with a block of cells selected in row 4 and 5 (a locked column among them).
      await page.locator('.data-grid').focus();
      await page.keyboard.press('Control+Home');
      for (const key of [
        'ArrowDown',
        'ArrowDown',
        'ArrowDown',
        'ArrowDown',
        'ArrowRight',
        'ArrowRight',
        'ArrowRight',
        'Shift+ArrowRight',
        'Shift+ArrowRight',
        'Shift+ArrowDown',
      ])
        await page.keyboard.press(key);
      await page.waitForSelector('.grid-cell.selected');
      return { page, close: () => host.close() };
    },
    'board with lanes and a moved card': async (options) => {
      const host = await BoardHost.open(environment().browser, environment().server, environment().client, {
        appId: ORDERS,
        viewId: '3',
        titleField: 'f11',
        definition: { column: 'f19', lanes: 'f22', fields: ['f17'] },
        ...options,
      });
      const page = host.panel.page;
      const card = page.locator('.card').first();
      await card.waitFor();
      await card.focus();
      await page.keyboard.press('Alt+ArrowRight');
      await host.settled();
      await page.waitForSelector('.card.pending:focus');
      return { page, close: () => host.close() };
    },
    'import panel before a dry run, with its warnings': async (options) => {
      const form = await PanelPage.open(environment().browser, environment().server, 'importRecords', options);
      await form.send(imports.init);
      // No key: the panel warns that a lost create is not sent again.
      const noKey = { ...imports.init.state.options, matchField: undefined };
      await form.send({ ...imports.init.state, options: noKey, warnings: optionWarnings(noKey, 'customers.uncertain.csv') });
      await form.page.waitForSelector('#import-mapping tbody tr');
      await form.page.waitForSelector('.import-warnings li');
      return panel(form);
    },
    'import panel after a dry run': async (options) => {
      const form = await PanelPage.open(environment().browser, environment().server, 'importRecords', options);
      await form.send(imports.init);
      await form.send(imports.dryRun);
      await form.page.waitForSelector('#dry-run-problems tbody tr');
      return panel(form);
    },
    'image viewer': async (options) => {
      const context = await environment().browser.newContext({
        viewport: options.viewport ?? { width: 1100, height: 800 },
        deviceScaleFactor: options.deviceScaleFactor ?? 1,
      });
      const page = await context.newPage();
      await page.setContent(themedHtml(imagePage({ fileName: 'desk.png', dataUri: PNG, size: 68 }), options.theme));
      return { page, close: () => context.close() };
    },
  };

  const slug = (text: string): string =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/-$/, '');
  const shot = (name: string): string => join(repoRoot(), 'test-results', 'screenshots', `webview-audit-${name}.png`);

  for (const [name, openScene] of Object.entries(scenes)) {
    for (const theme of THEMES) {
      it(`${name}, ${theme}: no axe-core violation`, async () => {
        open = await openScene({ theme });
        await open.page.screenshot({ path: shot(`${slug(name)}-${theme}`) });
        const violations = await axeViolations(open.page);
        assert.ok(violations.length === 0, `${violations.length} axe-core violations in ${theme}:\n${violations.join('\n')}`);
      });
    }
    for (const [size, { reflow, ...options }] of [
      ['200% zoom', ZOOMED],
      ["the side bar's narrowest width", NARROW],
    ] as const) {
      it(`${name} at ${size}: nothing overlaps or is cut off, no axe-core violation`, async () => {
        open = await openScene({ theme: 'light', ...options });
        await open.page.screenshot({ path: shot(`${slug(name)}-${slug(size)}`) });
        const problems = [...(await layoutProblems(open.page, { reflow })), ...(await axeViolations(open.page))];
        assert.ok(problems.length === 0, `${problems.length} problems at ${size}:\n${problems.join('\n')}`);
      });
    }
  }
});
