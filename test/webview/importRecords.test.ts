// The import mapping panel, built, in headless Chromium, fed what the host computes from a real file and
// the emulator's columns: the mapping with ignored columns and why, the preview as it will be sent, the
// dropdowns and options posting their changes, the dry-run report, the theme and the CSP.
import * as assert from 'node:assert/strict';
import { optionWarnings } from '../../src/import/panelState';
import type { ImportDryRunMessage, ImportInitMessage } from '../../src/shared/protocol';
import { choose } from './support/actions';
import { importFixture } from './support/importFixture';
import { PanelPage, THEMES } from './support/panelPage';
import { usePanelEnvironment } from './support/suite';

describe('the import mapping panel (webview)', function () {
  const environment = usePanelEnvironment();
  let init: ImportInitMessage;
  let dryRun: ImportDryRunMessage;
  let panel: PanelPage | undefined;

  before(async () => {
    ({ init, dryRun } = await importFixture(environment().client));
  });

  afterEach(async () => {
    if (panel) assert.deepEqual(panel.pageErrors, [], 'no script errors on the page');
    await panel?.close();
    panel = undefined;
  });

  async function open(options: Parameters<typeof PanelPage.open>[3] = {}): Promise<PanelPage> {
    panel = await PanelPage.open(environment().browser, environment().server, 'importRecords', options);
    await panel.send(init);
    await panel.page.waitForSelector('#import-mapping tbody tr');
    return panel;
  }

  it('shows each file column with its app column, and the ignored ones with why', async () => {
    const page = (await open()).page;
    const rows = await page.locator('#import-mapping tbody tr').evaluateAll((elements) =>
      elements.map((row) => ({
        source: row.querySelector('th')?.textContent,
        note: row.querySelector('.note')?.textContent,
        ignored: row.classList.contains('ignored'),
      })),
    );
    assert.deepEqual(
      rows.map((row) => row.source),
      ['Name', 'Email', 'Tier', 'Customer since', 'Remarks', 'Customer no'],
    );
    const notes = Object.fromEntries(rows.map((row) => [row.source, row]));
    assert.equal(notes['Name'].ignored, false);
    assert.match(notes['Remarks'].note ?? '', /Ignored: no column of the app has this name/);
    assert.equal(notes['Remarks'].ignored, true);
    assert.match(notes['Customer no'].note ?? '', /Ignored: Customer no\. \(f1\) is read-only \(Auto Number\)/);
  });

  it('previews the first rows as they will be sent: ISO dates as DD-MM-YYYY, bad values marked with why', async () => {
    const page = (await open()).page;
    assert.equal(
      await page.locator('#option-matchField vscode-dropdown').evaluate((element) => (element as unknown as { value: string }).value),
      'f2',
      'the unique column the file feeds is the key',
    );
    const header = await page.locator('#import-preview thead th').allTextContents();
    assert.equal(header[0], 'Row');
    const row2 = await page.locator('#import-preview tbody tr').nth(0).locator('td').allTextContents();
    assert.ok(row2.includes('05-01-2026'), `the ISO date is sent as DD-MM-YYYY: ${row2.join(' | ')}`);
    assert.ok(row2.includes('Gold (3)'), `a choice shows its name with the id sent: ${row2.join(' | ')}`);
    const row3 = await page.locator('#import-preview tbody tr').nth(1).locator('td.problem').allTextContents();
    assert.equal(row3.length, 1);
    assert.match(row3[0], /31-02-2026 ⚠ .*not a real date/);
  });

  it('posts a changed mapping and changed options to the host', async () => {
    const form = await open();
    const before = await form.postedCount();
    await choose(form.page.locator('#import-mapping tbody tr').nth(4).locator('vscode-dropdown'), 'Record id (upsert)');
    const changed = await form.waitForPost('import/setTarget', before);
    assert.deepEqual(changed, { type: 'import/setTarget', source: 'Remarks', target: 'recordId' });
    await choose(form.page.locator('#option-mode vscode-dropdown'), 'Upsert: update matching records, create the others');
    const options = await form.waitForPost('import/options', before);
    assert.equal((options.options as { mode: string }).mode, 'upsert');
    assert.deepEqual(options.options, {
      mode: 'upsert',
      draft: 'published',
      decimalSeparator: '.',
      timeZone: 'Europe/Paris',
      matchField: 'f2',
      viewId: '1',
    });
    await form.page.locator('#dry-run').click();
    await form.waitForPost('import/dryRun', before);
  });

  it('warns, without blocking, that with no key a lost create is not sent again but listed as uncertain', async () => {
    const form = await open();
    assert.equal(await form.page.locator('#import-warnings li').count(), 0, 'a key and a view: nothing to warn of');
    const options = { ...init.state.options, matchField: undefined };
    await form.send({ ...init.state, options, warnings: optionWarnings(options, 'customers.uncertain.csv') });
    const warning = (await form.page.locator('#import-warnings li').allTextContents()).join(' ');
    assert.match(warning, /Without a key .*not sent again .*uncertain .*customers\.uncertain\.csv/);
    assert.equal(await form.page.locator('#import').isDisabled(), false, 'the run is not blocked');
  });

  it('lists every row the dry run would fail, with row, column, value, expected format and why', async () => {
    const form = await open();
    await form.send(dryRun);
    const summary = await form.page.locator('#dry-run-summary').textContent();
    assert.equal(summary, '5 rows: 2 to create, 0 to update, 0 unchanged, 3 would fail.');
    const rows = await form.page
      .locator('#dry-run-problems tbody tr')
      .evaluateAll((elements) => elements.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)));
    assert.deepEqual(
      rows.map((row) => row.slice(0, 3)),
      [
        ['3', 'Customer since', '31-02-2026'],
        ['4', 'Tier', 'Platinum'],
        ['5', 'Name', ''],
      ],
    );
    const before = await form.postedCount();
    await form.page.locator('#export-problems').click();
    await form.waitForPost('import/exportProblems', before);
  });

  it('screenshots of the mapping and the dry-run report in light, dark and high contrast, with no CSP violation', async () => {
    for (const theme of THEMES) {
      const form = await open({ theme, viewport: { width: 1000, height: 900 } });
      await form.page.waitForTimeout(200);
      await form.screenshot(`import-mapping-${theme}`);
      await form.send(dryRun);
      await form.page.locator('#dry-run-report').scrollIntoViewIfNeeded();
      await form.page.waitForTimeout(200);
      await form.screenshot(`import-dry-run-${theme}`);
      assert.deepEqual(await form.cspViolations(), [], `no CSP violation in ${theme}`);
      await form.close();
      panel = undefined;
    }
  });
});
