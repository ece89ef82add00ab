// The create-record form, built, in headless Chromium: every kind of input, the checks, what is posted to
// the host, the portal's refusals shown at the field, the kept state, the theme and the CSP.
import * as assert from 'node:assert/strict';
import type { Column } from '../../src/api/types';
import type { FormInitMessage } from '../../src/shared/protocol';
import { choose } from './support/actions';

/** In functions run in the page. */
declare function getComputedStyle(element: unknown): { backgroundColor: string };
declare const requestAnimationFrame: (callback: () => void) => number;
import { PanelPage, THEMES, type PosterMessage } from './support/panelPage';
import { usePanelEnvironment } from './support/suite';

describe('the create-record form (webview)', function () {
  const environment = usePanelEnvironment();
  const columns: Record<string, Column[]> = {};
  let panel: PanelPage | undefined;

  before(async () => {
    for (const app of ['101', '102', '201', '202']) columns[app] = await environment().client.listColumns(app);
  });

  afterEach(async () => {
    if (panel) assert.deepEqual(panel.pageErrors, [], 'no script errors on the page');
    await panel?.close();
    panel = undefined;
  });

  function init(app: string, extra: Partial<FormInitMessage> = {}): FormInitMessage {
    const names: Record<string, string> = { '101': 'Customers', '102': 'Orders', '201': 'Tickets', '202': 'Knowledge base' };
    return {
      type: 'form/init',
      appName: names[app],
      portalLabel: 'Demo portal',
      columns: columns[app],
      offerDraft: app === '102',
      ...extra,
    };
  }

  async function openForm(
    app: string,
    options: Parameters<typeof PanelPage.open>[3] = {},
    extra: Partial<FormInitMessage> = {},
  ): Promise<PanelPage> {
    panel = await PanelPage.open(environment().browser, environment().server, 'recordForm', options);
    await panel.send(init(app, extra));
    await panel.page.waitForSelector('.field');
    return panel;
  }

  it('screenshots in light, dark and high contrast', async () => {
    for (const theme of THEMES) {
      const form = await openForm('102', { theme, viewport: { width: 760, height: 840 } });
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
  const ELEMENT_BY_KIND: Record<string, string> = {
    text: 'vscode-text-field[type="text"]',
    multiline: 'vscode-text-area',
    email: 'vscode-text-field[type="email"]',
    phone: 'vscode-text-field[type="tel"]',
    url: 'vscode-text-field[type="url"]',
    number: 'vscode-text-field',
    currency: 'vscode-text-field',
    date: 'input[type="date"]',
    datetime: 'input[type="datetime-local"]',
    duration: 'vscode-text-field',
    user: 'vscode-text-field',
  };
  const CHOICE_ELEMENT: Record<string, string> = {
    '0': 'vscode-dropdown',
    '1': 'vscode-radio-group',
    '2': 'fieldset.checkboxes vscode-checkbox',
  };

  it('renders one labelled input per writable column, in position order, by kind', async () => {
    const seenKinds = new Set<string>();
    for (const app of ['101', '102', '201', '202']) {
      const form = await openForm(app);
      const writable = columns[app]
        .filter((column) => !['Auto Number', 'LookUp'].includes(column.type_name))
        .sort((a, b) => Number(a.position) - Number(b.position));
      const fields = await form.page.locator('.field').evaluateAll((elements) =>
        elements.map((element) => ({
          key: element.getAttribute('data-field'),
          kind: element.getAttribute('data-kind'),
          text: element.textContent ?? '',
        })),
      );
      assert.deepEqual(
        fields.map((field) => field.key),
        writable.map((column) => column.field_id_in_data),
        `app ${app}: writable columns in position order`,
      );
      for (const [index, column] of writable.entries()) {
        const field = fields[index];
        seenKinds.add(field.kind ?? '');
        assert.ok(field.text.includes(column.field_name), `${column.field_id_in_data} is labelled "${column.field_name}"`);
        const selector = field.kind === 'choice' ? CHOICE_ELEMENT[column.choice_type ?? '0'] : ELEMENT_BY_KIND[field.kind ?? ''];
        assert.ok(selector, `a known kind: ${field.kind}`);
        assert.ok(
          (await form.page.locator(`[data-field="${column.field_id_in_data}"] ${selector}`).count()) > 0,
          `${column.field_id_in_data} (${field.kind}) is a ${selector}`,
        );
        const marked = (await form.page.locator(`[data-field="${column.field_id_in_data}"] .required-mark`).count()) > 0;
        assert.equal(marked, column.required === '1', `${column.field_id_in_data}: required mark`);
      }
      const readOnly = columns[app].filter((column) => ['Auto Number', 'LookUp'].includes(column.type_name));
      for (const column of readOnly)
        assert.match((await form.page.locator('.read-only-note').textContent()) ?? '', new RegExp(column.field_name));
      await form.close();
      panel = undefined;
    }
    assert.deepEqual([...seenKinds].sort(), [
      'choice',
      'currency',
      'date',
      'datetime',
      'duration',
      'email',
      'multiline',
      'number',
      'phone',
      'text',
      'url',
      'user',
    ]);
  });

  it('shows the currency symbol beside the amount and the choices with their colours', async () => {
    const form = await openForm('102');
    assert.equal((await form.page.locator('[data-field="f17"] .prefix').textContent())?.trim(), '€');
    const colours = await form.page
      .locator('[data-field="f20"] .swatch')
      .evaluateAll((elements) => elements.map((element) => getComputedStyle(element).backgroundColor));
    const expected = (columns['102'].find((column) => column.field_id_in_data === 'f20')?.choices ?? []).map((choice) => {
      const hex = choice.color.replace('#', '');
      return `rgb(${parseInt(hex.slice(0, 2), 16)}, ${parseInt(hex.slice(2, 4), 16)}, ${parseInt(hex.slice(4, 6), 16)})`;
    });
    assert.deepEqual(colours, expected);
  });

  async function fill(form: PanelPage, key: string, value: string): Promise<void> {
    const input = form.page.locator(`[data-field="${key}"] input, [data-field="${key}"] textarea`).first();
    await input.fill(value);
    await input.blur();
  }

  /** The value of a field's toolkit element (its inner <input> follows on the element's next render). */
  async function valueOf(form: PanelPage, key: string): Promise<string> {
    return form.page
      .locator(`[data-field="${key}"] vscode-text-field`)
      .evaluate((element) => (element as unknown as { value: string }).value);
  }

  async function errorOf(form: PanelPage, key: string): Promise<string> {
    return ((await form.page.locator(`[data-field="${key}"] .field-error`).textContent()) ?? '').trim();
  }

  async function creates(form: PanelPage): Promise<PosterMessage[]> {
    return (await form.posted()).filter((message) => message.type === 'form/create');
  }

  it("checks every kind with the documents' rules, next to the field, before sending", async () => {
    const customers = await openForm('101');
    await fill(customers, 'f3', 'a b@x');
    await fill(customers, 'f4', 'call me!');
    await fill(customers, 'f5', 'example.com');
    await fill(customers, 'f7', 'ada');
    await fill(customers, 'f8', '<b>open');
    assert.match(await errorOf(customers, 'f3'), /e-mail/, 'checked when leaving the field');
    await customers.page.click('#create');
    assert.match(await errorOf(customers, 'f2'), /required/);
    assert.match(await errorOf(customers, 'f4'), /phone/);
    assert.match(await errorOf(customers, 'f5'), /URL/);
    assert.match(await errorOf(customers, 'f7'), /e-mail addresses/);
    assert.match(await errorOf(customers, 'f8'), /HTML/);
    assert.equal(await customers.page.locator('[data-field="f6"] .field-error').textContent(), '', 'a valid value has no message');
    assert.deepEqual(await creates(customers), [], 'nothing sent');
    await customers.close();

    const orders = await openForm('102');
    await fill(orders, 'f11', 'Desks');
    await fill(orders, 'f12', '1e3');
    await fill(orders, 'f17', '€12');
    await fill(orders, 'f18', '1,5');
    await fill(orders, 'f21', '24:00');
    await orders.page.click('#create');
    assert.match(await errorOf(orders, 'f12'), /number/);
    assert.match(await errorOf(orders, 'f17'), /currency symbol/);
    assert.match(await errorOf(orders, 'f18'), /number/);
    assert.match(await errorOf(orders, 'f21'), /duration|hh:mm/);
    assert.match(await errorOf(orders, 'f15'), /required/);
    assert.equal(await errorOf(orders, 'f11'), '');
    assert.deepEqual(await creates(orders), [], 'nothing sent');
    // Fixing a field clears its message as the user types.
    await orders.page.locator('[data-field="f12"] input').fill('7');
    assert.equal(await errorOf(orders, 'f12'), '');
  });

  it("sends the values in the API's formats: dates as DD-MM-YYYY, local date-times in UTC, ids, e-mail lists", async () => {
    const form = await openForm('102', { timezoneId: 'Europe/Berlin' });
    await fill(form, 'f11', 'Standing desks');
    await fill(form, 'f12', '3');
    await form.page.locator('[data-field="f15"] input').fill('2026-11-21');
    await form.page.locator('[data-field="f16"] input').fill('2026-07-01T14:05');
    assert.match((await form.page.locator('[data-field="f16"] .preview').textContent()) ?? '', /Sent as 01-07-2026 12:05 UTC/);
    await fill(form, 'f17', '1200.50');
    await fill(form, 'f18', '2');
    await choose(form.page.locator('[data-field="f19"] vscode-dropdown'), 'Shipped');
    await form.page.locator('[data-field="f20"] vscode-checkbox', { hasText: 'Urgent' }).click();
    await form.page.locator('[data-field="f20"] vscode-checkbox', { hasText: 'Fragile' }).click();
    await fill(form, 'f21', '1:30');
    await fill(form, 'f22', 'ada@example.com, grace@example.com');
    await form.page.click('#create');
    const [sent] = await creates(form);
    const expected = {
      f11: 'Standing desks',
      f12: '3',
      f15: '21-11-2026',
      f16: '01-07-2026 12:05',
      f17: '1200.50',
      f18: '2',
      f19: '3',
      f20: '1,4',
      f21: '01:30',
      f22: 'ada@example.com,grace@example.com',
    };
    assert.deepEqual(sent, { type: 'form/create', draft: false, data: expected });
    // The portal takes them as they are.
    const created = await environment().client.createRecord('102', expected);
    assert.equal(created.data.f16, '01-07-2026 12:05');
    // Busy until the host answers; then "Save as draft" sends the same values as a draft.
    await form.send({ type: 'form/failed', message: 'try again' });
    await form.page.click('#save-draft');
    const all = await creates(form);
    assert.equal(all.length, 2);
    assert.equal(all[1].draft, true);
  });

  it("shows the portal's refusal next to the field it names, as text", async () => {
    const form = await openForm('102');
    await form.send({
      type: 'form/failed',
      field: 'f15',
      message: 'f15 (Order date) needs a real calendar date as DD-MM-YYYY. <img src=x onerror="window.__xss=1">',
    });
    assert.match(await errorOf(form, 'f15'), /needs a real calendar date.*<img src=x onerror/);
    assert.match((await form.page.locator('#form-message').textContent()) ?? '', /Order date/);
    assert.equal(await form.page.locator('img').count(), 0);
    assert.deepEqual(await form.cspViolations(), []);
  });

  it('after creating: "Open record", and "New record" clears the form', async () => {
    const form = await openForm('102');
    await fill(form, 'f11', 'Chairs');
    await choose(form.page.locator('[data-field="f19"] vscode-dropdown'), 'Confirmed');
    await form.send({ type: 'form/created', recordId: '9', draft: false, message: 'Created record 9 in Orders.' });
    assert.match((await form.page.locator('#form-message').textContent()) ?? '', /Created record 9 in Orders/);
    const before = await form.postedCount();
    await form.page.click('#open-record');
    assert.equal((await form.waitForPost('openRecord', before)).recordId, '9');
    await form.page.click('#new-record');
    assert.equal(await valueOf(form, 'f11'), '');
    const status = await form.page
      .locator('[data-field="f19"] vscode-dropdown')
      .evaluate((element) => (element as unknown as { value: string }).value);
    assert.equal(status, '1', 'back to the column default');
  });

  it('shows the default a choice left as it is gets from the portal, never "(none)"', async () => {
    const form = await openForm('201');
    await form.page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    const shown = async (field: string): Promise<string> =>
      ((await form.page.locator(`[data-field="${field}"] vscode-dropdown .selected-value`).textContent()) ?? '').trim();
    assert.equal(await shown('f34'), 'Normal', 'Priority shows its default, Normal');
    const checked = await form.page
      .locator('[data-field="f35"] vscode-radio')
      .evaluateAll((radios) =>
        radios.filter((radio) => radio.getAttribute('aria-checked') === 'true').map((radio) => (radio.textContent ?? '').trim()),
      );
    assert.deepEqual(checked, ['Open'], 'State shows its default, Open');
    // The empty choice says what it means: the portal's default.
    await form.page.locator('[data-field="f34"] vscode-dropdown').click();
    const labels = (await form.page.locator('[data-field="f34"] vscode-option').allTextContents()).map((text) => text.trim());
    assert.ok(!labels.includes('(none)'), `no "(none)" where the portal applies a default (${labels.join(', ')})`);
    await form.page.keyboard.press('Escape');
    await form.close();
    panel = undefined;
    const orders = await openForm('102');
    assert.equal(
      ((await orders.page.locator('[data-field="f19"] vscode-dropdown .selected-value').textContent()) ?? '').trim(),
      'New',
      'Status of an order: New',
    );
  });

  it('keeps what was typed when the panel is hidden and shown again', async () => {
    const form = await openForm('102');
    await fill(form, 'f11', 'Kept title');
    await form.page.locator('[data-field="f20"] vscode-checkbox', { hasText: 'Gift' }).click();
    // Hiding a panel unloads its page; showing it loads it again, with the state VS Code kept.
    await form.page.reload();
    await form.waitForPost('ready');
    await form.send(init('102'));
    await form.page.waitForSelector('.field');
    assert.equal(await valueOf(form, 'f11'), 'Kept title');
    const gift = await form.page
      .locator('[data-field="f20"] vscode-checkbox', { hasText: 'Gift' })
      .evaluate((element) => (element as unknown as { checked: boolean }).checked);
    assert.equal(gift, true);
  });

  it('shown again while Create runs, or after it succeeded, offers no second Create', async () => {
    const form = await openForm('102');
    await fill(form, 'f11', 'Chairs');
    // Hidden and shown while a create is under way: the host says so with the form's columns.
    await form.page.reload();
    await form.waitForPost('ready');
    await form.send(init('102', { outcome: { state: 'pending' } }));
    await form.page.waitForSelector('.field');
    assert.equal(
      await form.page.locator('#create').evaluate((element) => (element as unknown as { disabled: boolean }).disabled),
      true,
      'Create is off while the create runs',
    );
    assert.equal(await form.page.locator('.busy').evaluate((element) => element.hasAttribute('hidden')), false, 'the busy ring shows');
    // Hidden and shown after it succeeded (the page missed form/created): the banner, and still no second Create.
    await form.page.reload();
    await form.waitForPost('ready');
    await form.send(init('102', { outcome: { state: 'created', recordId: '9', draft: false, message: 'Created record 9 in Orders.' } }));
    await form.page.waitForSelector('.field');
    assert.match((await form.page.locator('#form-message').textContent()) ?? '', /Created record 9 in Orders/);
    assert.equal(
      await form.page.locator('#create').evaluate((element) => (element as unknown as { disabled: boolean }).disabled),
      true,
      'no second Create of the same values',
    );
    await fill(form, 'f11', 'Tables');
    assert.equal(
      await form.page.locator('#create').evaluate((element) => (element as unknown as { disabled: boolean }).disabled),
      false,
      'an edit makes a new record',
    );
  });

  it('offers "Save as draft" only for apps with Draft mode', async () => {
    const withDraft = await openForm('102');
    assert.equal(await withDraft.page.locator('#save-draft').count(), 1);
    await withDraft.close();
    const without = await openForm('101', {}, { offerDraft: false });
    assert.equal(await without.page.locator('#save-draft').count(), 0);
    assert.equal(await without.page.locator('#create').count(), 1);
  });
});
