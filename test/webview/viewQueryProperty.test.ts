// A property of the view query panel, in real Chromium with the real host session over the emulator:
// whatever the filter rows SHOW is exactly what Run sends, and the row count shown is the portal's own.
// Random sequences of what a user does with the controls (clicks, keys, choosing in the toolkit's
// dropdowns, typing) and, after each Run, the four filter parameters of the request the emulator logged
// compared with the visible text of the controls, and the count compared with the emulator's answer to
// those parameters (asked directly over HTTP, not through the extension's client).
//
// Seeded: a failure names its seed and steps. Replay with
//   QUERY_PROPERTY_SEED=<seed> MOCHA_GREP="shows is what it sends" node test/run.mjs webview
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { emulatorControl } from '../support/emulator';
import { choose } from './support/actions';
import type { PageDocument } from './support/panelPage';
import { QueryHost } from './support/queryHost';
import { usePanelEnvironment } from './support/suite';

/** In functions run in the page. */
declare const document: PageDocument;
declare const requestAnimationFrame: (callback: () => void) => number;

const SEQUENCES = 6;
const STEPS = 9;
const APP = '201';
const VIEW = '8';

/** The operator codes of the portal's API (portal-api.md, "Read records by view"), by the label a user reads. */
const OPERATOR_CODES: Record<string, string> = {
  contains: '0',
  'does not contain': '1',
  equals: '2',
  'does not equal': '3',
  'is empty': '4',
  'is not empty': '5',
  'less than': '6',
  'less than or equal to': '7',
  'greater than': '8',
  'greater than or equal to': '9',
};

/** Values a user might type, by the portal's type name; a few are wrong on purpose. */
const TYPED: Record<string, string[]> = {
  'Auto Number': ['100010', '100300', '7', 'abc'],
  Number: ['12', '0', '150', '1e'],
  Currency: ['120.50', '900', '0', '$5'],
  Date: ['01-06-2025', '15-01-2024', '2025-01-01'],
  'Date & Time': ['01-06-2025 10:00', '31-12-2024 23:59'],
  Duration: ['02:00', '00:30', '2h'],
};
const TEXT = ['printer', 'a', 'login', 'zzz-none', 'e'];

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
function generator(seed: number): { next(): number; pick<T>(items: readonly T[]): T; chance(p: number): boolean } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: (items) => items[Math.floor(next() * items.length)], chance: (p) => next() < p };
}

interface PortalColumn {
  field_id: string;
  field_name: string;
  type_name: string;
  lookup_app_id?: string;
  lookup_field_id?: string;
  choices?: Array<{ id: string; name: string }>;
}

/** What a filter row shows: the visible text of its controls. */
interface ShownRow {
  column: string;
  operator: string;
  value?: { text: string; dropdown: boolean };
  lookupApp?: string;
}

describe('the view query panel: a property (webview)', function () {
  const environment = usePanelEnvironment({ bigViewRecords: 600 });
  let token = '';
  const columnsOf = new Map<string, PortalColumn[]>();

  /** The portal, asked directly: a token of its own, and its answers as they are on the wire. */
  async function portal(path: string): Promise<Response> {
    const { emulator } = environment();
    if (!token) {
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: emulator.clientId,
        client_secret: emulator.clientSecret,
      });
      const answer = (await (await fetch(`${emulator.baseUrl}/api/v1/oauth2/token`, { method: 'POST', body })).json()) as {
        access_token: string;
      };
      token = answer.access_token;
    }
    return fetch(`${emulator.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  }

  async function columns(app: string): Promise<PortalColumn[]> {
    let known = columnsOf.get(app);
    if (!known) {
      known = (await (await portal(`/api/v1/app/${app}/columns`)).json()) as PortalColumn[];
      columnsOf.set(app, known);
    }
    return known;
  }

  /** The portal's column behind a label of the column dropdown: "Subject", or "Tier (app 101)". */
  async function columnFor(label: string): Promise<{ app: string; column: PortalColumn }> {
    const lookup = /^(.*) \(app (\w+)\)$/.exec(label);
    const app = lookup ? lookup[2] : APP;
    const name = lookup ? lookup[1] : label;
    const column = (await columns(app)).find((candidate) => candidate.field_name === name);
    assert.ok(column, `the portal has a column "${name}" in app ${app}`);
    return { app, column };
  }

  /** The kind a column compares as: a LookUp column as the column it shows. */
  async function comparedType(column: PortalColumn): Promise<PortalColumn> {
    if (column.type_name !== 'LookUp' || !column.lookup_app_id) return column;
    const target = (await columns(column.lookup_app_id)).find((candidate) => candidate.field_id === column.lookup_field_id);
    return target ? comparedType(target) : column;
  }

  async function selectedText(dropdown: Locator): Promise<string> {
    return ((await dropdown.locator('.selected-value').textContent()) ?? '').trim();
  }

  /** The toolkit paints its controls on the next animation frame: read them as the user sees them, after it. */
  async function painted(page: Page): Promise<void> {
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  }

  /**
   * A filter's column, once the toolkit shows it: every filter has one, but a dropdown made a moment ago (a
   * filter added after one was removed) can take more than the two frames `painted` waits to show it.
   */
  async function columnShown(page: Page, dropdown: Locator): Promise<string> {
    for (let frames = 0; frames < 60; frames += 1) {
      const text = await selectedText(dropdown);
      if (text !== '') return text;
      await painted(page);
    }
    return selectedText(dropdown);
  }

  async function shownRows(page: Page): Promise<ShownRow[]> {
    await painted(page);
    const shown: ShownRow[] = [];
    for (const row of await page.locator('.filter-row').all()) {
      const entry: ShownRow = {
        column: await columnShown(page, row.locator('.filter-column')),
        operator: await selectedText(row.locator('.filter-operator')),
      };
      const choice = row.locator('.filter-value vscode-dropdown');
      const text = row.locator('.filter-value vscode-text-field input');
      if ((await choice.count()) > 0) entry.value = { text: await selectedText(choice), dropdown: true };
      else if ((await text.count()) > 0) entry.value = { text: await text.inputValue(), dropdown: false };
      const lookup = row.locator('.filter-lookup input');
      if ((await lookup.count()) > 0) entry.lookupApp = await lookup.inputValue();
      shown.push(entry);
    }
    return shown;
  }

  /** The four parameters the shown rows mean, by the API's rules, independently of the panel's code. */
  async function expectedParameters(rows: readonly ShownRow[]): Promise<Record<string, string>> {
    const columnsParam: string[] = [];
    const values: string[] = [];
    const apps: string[] = [];
    const operators: string[] = [];
    for (const row of rows) {
      const { app, column } = await columnFor(row.column);
      columnsParam.push(column.field_id);
      const code = OPERATOR_CODES[row.operator];
      assert.ok(code, `a known operator is shown: "${row.operator}"`);
      operators.push(code);
      let value = row.value?.text ?? '';
      if (row.value?.dropdown) {
        const choice = (await comparedType(column)).choices?.find((candidate) => candidate.name === value);
        assert.ok(choice, `"${value}" is a choice of ${row.column}`);
        value = choice.id;
      }
      values.push(value);
      apps.push(app === APP ? '' : (row.lookupApp ?? ''));
    }
    // A list whose items are all empty says nothing: sending it or leaving it out mean the same.
    const list = (items: string[]): string => (items.every((item) => item === '') ? '' : items.join('|'));
    return {
      filter_columns: columnsParam.join('|'),
      filter_values: list(values),
      filter_apps: list(apps),
      filter_operators: operators.join('|'),
    };
  }

  async function lastSeq(): Promise<number> {
    const all = await emulatorControl<Array<{ seq: number }>>(environment().emulator, 'GET', 'requests');
    return all.length > 0 ? all[all.length - 1].seq : 0;
  }

  async function viewRequestsSince(seq: number): Promise<Array<{ query: string; status: number }>> {
    const log = await emulatorControl<Array<{ path: string; query: string; status: number }>>(
      environment().emulator,
      'GET',
      `requests?since=${seq}`,
    );
    return log.filter((entry) => entry.path === `/api/v1/app/${APP}/view/${VIEW}`);
  }

  /** Chooses an option as a keyboard user does: focus, open with Space, arrows to it, Enter. */
  async function chooseByKeys(page: Page, dropdown: Locator, label: string): Promise<void> {
    const labels = (await dropdown.locator('vscode-option').allTextContents()).map((text) => text.trim());
    const from = labels.indexOf(await selectedText(dropdown));
    const to = labels.indexOf(label);
    await dropdown.focus();
    await page.keyboard.press('Space');
    for (let i = from; i !== to; i += to > from ? 1 : -1) await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
    await page.keyboard.press('Enter');
  }

  async function optionLabels(dropdown: Locator): Promise<string[]> {
    return (await dropdown.locator('vscode-option').allTextContents()).map((text) => text.trim());
  }

  it('shows is what it sends, after any sequence of edits, and counts what the portal counts', async function () {
    const firstSeed = Number(process.env.QUERY_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
    for (let sequence = 0; sequence < SEQUENCES; sequence++) {
      const seed = firstSeed + sequence;
      const steps: string[] = [];
      const host = await QueryHost.open(environment().browser, environment().server, environment().client, { appId: APP, viewId: VIEW });
      try {
        await runSequence(host, generator(seed), steps);
        assert.deepEqual(host.panel.pageErrors, [], 'no script errors on the page');
      } catch (error) {
        const screenshot = await host.panel.screenshot(`viewQuery-property-${seed}`).catch(() => 'none');
        const message =
          error instanceof assert.AssertionError
            ? `${error.message}\nshown:\n${JSON.stringify(error.expected)}\nsent:\n${JSON.stringify(error.actual)}`
            : String(error);
        throw new Error(
          `Seed ${seed} (replay: QUERY_PROPERTY_SEED=${seed}), screenshot ${screenshot}, steps:\n  ${steps.join('\n  ')}\n${message}`,
        );
      } finally {
        await host.close();
      }
    }
  });

  async function runSequence(host: QueryHost, random: ReturnType<typeof generator>, steps: string[]): Promise<void> {
    const page = host.panel.page;
    // A first run brings the Lookup app's columns into the builder, as it does for a user.
    await runAndCheck(host, steps);
    for (let step = 0; step < STEPS; step++) {
      const rows = page.locator('.filter-row');
      const count = await rows.count();
      const action =
        count === 0
          ? 'add'
          : random.pick(['add', 'remove', 'column', 'column', 'operator', 'operator', 'value', 'value', 'lookup'] as const);
      const index = Math.floor(random.next() * Math.max(count, 1));
      const row = rows.nth(index);
      const byKeys = random.chance(0.4);
      if (action === 'add') {
        if (count >= 4) continue;
        steps.push('add a filter');
        await page.click('#add-filter');
      } else if (action === 'remove') {
        steps.push(`remove filter ${index + 1}`);
        await row.locator('.filter-remove').click();
      } else if (action === 'column' || action === 'operator') {
        const dropdown = row.locator(action === 'column' ? '.filter-column' : '.filter-operator');
        const label = random.pick(await optionLabels(dropdown));
        steps.push(`filter ${index + 1}: ${action} "${label}"${byKeys ? ' by keys' : ''}`);
        if (byKeys) await chooseByKeys(page, dropdown, label);
        else await choose(dropdown, label);
      } else if (action === 'value') {
        const choice = row.locator('.filter-value vscode-dropdown');
        const text = row.locator('.filter-value vscode-text-field input');
        if ((await choice.count()) > 0) {
          const label = random.pick(await optionLabels(choice));
          steps.push(`filter ${index + 1}: value "${label}"${byKeys ? ' by keys' : ''}`);
          if (byKeys) await chooseByKeys(page, choice, label);
          else await choose(choice, label);
        } else if ((await text.count()) > 0) {
          const { column } = await columnFor(await selectedText(row.locator('.filter-column')));
          const typed = random.pick(TYPED[(await comparedType(column)).type_name] ?? TEXT);
          steps.push(`filter ${index + 1}: type "${typed}"`);
          await text.click();
          await page.keyboard.press('Control+A');
          await page.keyboard.type(typed);
        }
      } else {
        const lookup = row.locator('.filter-lookup input');
        if ((await lookup.count()) > 0) {
          const typed = random.pick(['101', '101', '102', '']);
          steps.push(`filter ${index + 1}: lookup app "${typed}"`);
          await lookup.click();
          await page.keyboard.press('Control+A');
          if (typed) await page.keyboard.type(typed);
          else await page.keyboard.press('Delete');
        }
      }
      if (random.chance(0.5) || step === STEPS - 1) await runAndCheck(host, steps);
    }
  }

  async function runAndCheck(host: QueryHost, steps: string[]): Promise<void> {
    const page = host.panel.page;
    const shown = await shownRows(page);
    steps.push(`Run, showing ${JSON.stringify(shown)}`);
    const since = await lastSeq();
    await page.click('#run');
    await page.waitForFunction(() => !/Running|Loading/.test(document.querySelector('#row-count')?.textContent ?? ''), undefined, {
      timeout: 20_000,
    });
    await host.settled();
    const requests = await viewRequestsSince(since);
    const refused = (await page.locator('.filter-row.invalid').count()) > 0;
    if (refused) {
      assert.equal(requests.length, 0, 'a filter marked as needing attention: nothing is sent');
      assert.match((await page.locator('#query-message').textContent()) ?? '', /need attention/);
      return;
    }
    assert.equal(requests.length, 1, 'Run reads the view once');
    const expected = await expectedParameters(shown);
    const sent = new URLSearchParams(requests[0].query);
    const parameters = Object.fromEntries(Object.keys(expected).map((name) => [name, sent.get(name) ?? '']));
    assert.deepEqual(parameters, expected, 'the request carries what the controls show');
    const query = new URLSearchParams(shown.length > 0 ? expected : {});
    const answer = await portal(`/api/v1/app/${APP}/view/${VIEW}${shown.length > 0 ? `?${query}` : ''}`);
    const countShown = ((await page.locator('#row-count').textContent()) ?? '').trim();
    if (!answer.ok) {
      assert.equal(countShown, '', `the portal refuses (${answer.status}): no count`);
      assert.ok(await page.locator('#query-message').isVisible(), 'the portal refuses: a message says why');
      return;
    }
    const rows = ((await answer.json()) as { data: unknown[] }).data.length;
    assert.equal(countShown, rows === 1 ? '1 row' : `${rows.toLocaleString('en-US')} rows`, 'the count is the portal’s');
  }
});
