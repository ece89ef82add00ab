// The panels as a screen reader meets them, read from Chromium's computed accessibility tree (not from the
// attributes the page sets): an invalid field says why when focus lands on it, whether its control is the
// toolkit's (its <input> in a shadow root) or the browser's own; the choice groups are named and say
// whether they are required; the Query View's filters are a named group, and a refused filter value says why.
import * as assert from 'node:assert/strict';
import type { Column } from '../../src/api/types';
import type { FormInitMessage } from '../../src/shared/protocol';
import { choose } from './support/actions';
import { accessibilityTree, focusPath, type AxNode } from './support/axTree';
import { PanelPage } from './support/panelPage';
import { QueryHost } from './support/queryHost';
import { usePanelEnvironment } from './support/suite';

const NAMES: Record<string, string> = { '102': 'Orders', '201': 'Tickets', '202': 'Knowledge base' };

describe('accessibility of the panels (webview, accessibility tree)', function () {
  const environment = usePanelEnvironment();
  const columns: Record<string, Column[]> = {};
  let panel: PanelPage | undefined;
  let host: QueryHost | undefined;

  before(async () => {
    for (const app of Object.keys(NAMES)) columns[app] = await environment().client.listColumns(app);
  });

  afterEach(async () => {
    if (panel) assert.deepEqual(panel.pageErrors, [], 'no script errors on the page');
    await panel?.close();
    panel = undefined;
    await host?.close();
    host = undefined;
  });

  /** The form of an app; `required` makes these columns required (the seed has no required choice group). */
  async function openForm(
    app: string,
    required: readonly string[] = [],
    options: Parameters<typeof PanelPage.open>[3] = {},
  ): Promise<PanelPage> {
    panel = await PanelPage.open(environment().browser, environment().server, 'recordForm', options);
    const appColumns = columns[app].map((column) => (required.includes(column.field_id_in_data) ? { ...column, required: '1' } : column));
    await panel.send({
      type: 'form/init',
      appName: NAMES[app],
      portalLabel: 'Demo portal',
      columns: appColumns,
      offerDraft: false,
    } satisfies FormInitMessage);
    await panel.page.waitForSelector('.field');
    return panel;
  }

  async function errorOf(form: PanelPage, key: string): Promise<string> {
    return ((await form.page.locator(`[data-field="${key}"] .field-error`).textContent()) ?? '').trim();
  }

  /** The control of `role` that has the focus or holds it (a date input's month field has it). */
  async function focusedControl(form: PanelPage, role: string): Promise<AxNode> {
    const path = await focusPath(form.page);
    const control = path.find((node) => node.role === role);
    assert.ok(control, `focus is in a ${role}: ${JSON.stringify(path.map((node) => `${node.role} ${node.name}`))}`);
    return control;
  }

  /**
   * The focused control once `settled` holds for it (or after 5 s, for the assertions to report): the
   * toolkit copies aria-invalid into its shadow root on its next update, not at once.
   */
  async function focusedControlWhen(form: PanelPage, role: string, settled: (node: AxNode) => boolean): Promise<AxNode> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const node = await focusedControl(form, role);
      if (settled(node) || Date.now() > deadline) return node;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Create with a problem: focus moves to the first invalid field, which must say why. */
  async function assertFocusedSaysWhy(form: PanelPage, key: string, role: string): Promise<AxNode> {
    await form.page.click('#create');
    const error = await errorOf(form, key);
    assert.notEqual(error, '', `${key} shows an error`);
    const focused = await focusedControlWhen(form, role, (node) => node.description.includes(error) && node.properties.invalid === 'true');
    assert.ok(
      focused.description.includes(error),
      `${key}: the focused ${role}'s description "${focused.description}" has the error "${error}"`,
    );
    assert.equal(focused.properties.invalid, 'true', `${key}: the focused ${role} is invalid`);
    return focused;
  }

  it('a toolkit text field, a text area and a native date input, focused after a failed Create, are described by their error', async () => {
    const orders = await openForm('102', [], { viewport: { width: 760, height: 840 } });
    // Title (the toolkit's text field) is the first required field left empty.
    const title = await assertFocusedSaysWhy(orders, 'f11', 'textbox');
    assert.equal(title.name, 'Title (required)', 'named by its label as read: no "*"');
    await orders.page.locator('[data-field="f11"] input').fill('Standing desks');
    // Order date (the browser's date input) is next.
    const date = await assertFocusedSaysWhy(orders, 'f15', 'Date');
    assert.match(date.name, /Order date/);
    await orders.page.waitForTimeout(200);
    await orders.screenshot('recordForm-errors');
    // A field's description (the portal's text for the column) stays in its accessible description.
    await orders.page.locator('[data-field="f12"] input').fill('1e3');
    await orders.page.locator('[data-field="f12"] input').blur();
    const customerId = (await accessibilityTree(orders.page)).find((node) => node.role === 'textbox' && node.name.includes('Customer id'));
    assert.ok(
      customerId?.description.includes('Id of the record in Customers'),
      `the column's description is kept: "${customerId?.description}"`,
    );
    assert.ok(customerId?.description.includes(await errorOf(orders, 'f12')), `and the error is added: "${customerId?.description}"`);
    await orders.close();
    panel = undefined;

    const articles = await openForm('202');
    await articles.page.locator('[data-field="f51"] input').fill('How to');
    await assertFocusedSaysWhy(articles, 'f52', 'textbox');
  });

  it('says why a toolkit field is invalid in a Chromium without element reflection (VS Code 1.100 ships Chromium 132)', async () => {
    const withoutReflection = (): void => {
      const page = globalThis as unknown as { Element: { prototype: Record<string, unknown> } };
      delete page.Element.prototype.ariaDescribedByElements;
    };
    const orders = await openForm('102', [], { initScript: withoutReflection });
    const reflects = await orders.page.evaluate(
      () => 'ariaDescribedByElements' in (globalThis as unknown as { document: { body: object } }).document.body,
    );
    assert.equal(reflects, false, 'the page has no element reflection');
    await assertFocusedSaysWhy(orders, 'f11', 'textbox');
  });

  it('the toolkit\'s text fields are named by their label as read (no "*", no currency symbol)', async () => {
    const orders = await openForm('102');
    const textboxes = (await accessibilityTree(orders.page)).filter((node) => node.role === 'textbox').map((node) => node.name);
    for (const name of ['Title (required)', 'Customer id', 'Amount (required)', 'Quantity', 'Handling time', 'Owner']) {
      assert.ok(textboxes.includes(name), `a textbox named "${name}" among ${JSON.stringify(textboxes)}`);
    }
  });

  it('a fixed field is no longer invalid nor described by an old error', async () => {
    const orders = await openForm('102');
    await assertFocusedSaysWhy(orders, 'f11', 'textbox');
    await orders.page.locator('[data-field="f11"] input').fill('Chairs');
    const focused = await focusedControlWhen(
      orders,
      'textbox',
      (node) => node.description.trim() === '' && node.properties.invalid !== 'true',
    );
    assert.equal(focused.description.trim(), '');
    assert.notEqual(focused.properties.invalid, 'true');
  });

  it('a required radio group is a named, required radiogroup; a required checkbox group says so in its name; both carry their error', async () => {
    const tickets = await openForm('201', ['f35']);
    const states = (await accessibilityTree(tickets.page)).filter((node) => node.role === 'radiogroup');
    const state = states.find((node) => node.name.includes('State'));
    assert.ok(state, `a radiogroup named State (${JSON.stringify(states.map((node) => node.name))})`);
    assert.equal(state.properties.required, true, 'the radiogroup is required');
    await tickets.close();
    panel = undefined;

    const orders = await openForm('102', ['f20']);
    await orders.page.locator('[data-field="f11"] input').fill('Chairs');
    await orders.page.locator('[data-field="f15"] input').fill('2026-11-21');
    await orders.page.locator('[data-field="f17"] input').fill('12');
    await orders.page.click('#create');
    const error = await errorOf(orders, 'f20');
    assert.match(error, /required/);
    const groups = (await accessibilityTree(orders.page)).filter((node) => node.role === 'group');
    const tags = groups.find((node) => node.name.startsWith('Tags'));
    assert.ok(tags, `a group named Tags (${JSON.stringify(groups.map((node) => node.name))})`);
    assert.match(tags.name, /required/, 'the name says the group is required');
    assert.ok(tags.description.includes(error), `the group's description "${tags.description}" has the error`);
    assert.equal(
      await orders.page.locator('[data-field="f20"] fieldset').getAttribute('aria-required'),
      null,
      'no aria-required where the group role has none',
    );
  });

  it("the Query View's filters are a group named Filters; a refused value is described by the reason", async () => {
    host = await QueryHost.open(environment().browser, environment().server, environment().client, { appId: '201', viewId: '6' });
    const page = host.panel.page;
    await page.click('#add-filter');
    const groups = (await accessibilityTree(page)).filter((node) => node.role === 'group').map((node) => node.name);
    assert.ok(groups.includes('Filters'), `a group named Filters among ${JSON.stringify(groups)}`);
    assert.ok(groups.includes('Filter 1'), 'and the row inside it');
    await choose(page.locator('.filter-column').first(), 'Cost');
    await page.locator('.filter-value input').first().fill('$12');
    await page.click('#run');
    const error = ((await page.locator('.filter-error').first().textContent()) ?? '').trim();
    assert.match(error, /amount/);
    const value = await focusedControlWhen(
      host.panel,
      'textbox',
      (node) => node.description.includes(error) && node.properties.invalid === 'true',
    );
    assert.equal(value.name, 'Value', 'named by its own label, not the toolkit\'s "Text field"');
    assert.ok(value.description.includes(error), `the focused value's description "${value.description}" has the error "${error}"`);
    assert.equal(value.properties.invalid, 'true');
  });
});
