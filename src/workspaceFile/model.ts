// The team's shared setup, `.vscode/portal.json` (issue 32): the portals a repository's team works with and,
// per app, the views by id, the title field, saved queries and grid layouts. Read with positions so that
// every invalid entry is a Problem where it stands and every valid one still works. Never a secret or a
// token: those are refused where they were typed, and never read. Settings that turn on something risky
// (the agent's write tools, the webhook receiver's binding) are never read from it either: a repository
// must not switch them on for whoever opens it.
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { isFilterOperatorName, type ViewFilter } from '../api/filters';
import { checkTemplate } from '../references/patterns';

/** Where the file lives in each workspace folder: beside the editor settings a team already reviews. */
export { WORKSPACE_FILE_PATH } from '../ids';

export type SharedFlow = 'authorizationCode' | 'clientCredentials';
export type SharedRedirectMode = 'uriHandler' | 'loopback';

export interface FileProblem {
  readonly message: string;
  readonly offset: number;
  readonly length: number;
  readonly severity: 'error' | 'warning';
}

export interface SharedView {
  readonly viewId: string;
  readonly name: string;
  /** The columns shown, in their order (field_id_in_data); undefined: the view's own. */
  readonly columns?: readonly string[];
}

export interface SharedSort {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

export interface SharedQuery {
  readonly name: string;
  readonly viewId: string;
  readonly filters: readonly ViewFilter[];
  readonly sort?: readonly SharedSort[];
  readonly columns?: readonly string[];
}

export interface SharedLayout {
  readonly viewId: string;
  readonly order: readonly string[];
  readonly hidden: readonly string[];
  readonly frozen: number;
}

/** A view's board: the Choice column of its columns, the USER or Choice column of its lanes, the cards' fields. */
export interface SharedBoard {
  readonly viewId: string;
  readonly column: string;
  readonly lanes?: string;
  readonly fields: readonly string[];
}

/**
 * The team's convention for Start Work on the app's records: the Choice column that says a record's state,
 * its value once work starts and once it is done, and the USER column that says who works on it. Columns by
 * field_id_in_data or name, values by the choice's name or id, matched when Start Work runs.
 */
export interface SharedStartWork {
  readonly statusField?: string;
  readonly startStatus?: string;
  readonly doneStatus?: string;
  readonly userField?: string;
}

export interface SharedApp {
  readonly appId: string;
  readonly titleField?: string;
  readonly startWork?: SharedStartWork;
  /** How the app's records are referred to in code and commits: 'TCK-{id}', '#{id}' (references/patterns.ts). */
  readonly reference?: string;
  readonly views: readonly SharedView[];
  readonly queries: readonly SharedQuery[];
  readonly layouts: readonly SharedLayout[];
  /** Absent in a file without boards (and in what was read before boards were shared). */
  readonly boards?: readonly SharedBoard[];
  /** The views My Records reads for this app (absent or empty: all the app's added views). */
  readonly myRecords?: readonly string[];
}

export interface SharedPortal {
  readonly name: string;
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly flow: SharedFlow;
  readonly redirectMode?: SharedRedirectMode;
  /** The portal's own web page for a record or view: {baseUrl}, {appId}, {viewId}, {recordId}. */
  readonly webUrlTemplate?: string;
  readonly apps: readonly SharedApp[];
}

export interface WorkspaceFile {
  readonly portals: readonly SharedPortal[];
  readonly problems: readonly FileProblem[];
}

/** The keys each object of the file may hold; the JSON schema (media/schemas) is checked against them. */
export const FILE_KEYS = {
  root: ['$schema', 'portals'],
  portal: ['name', 'baseUrl', 'clientId', 'flow', 'redirectMode', 'webUrlTemplate', 'apps'],
  app: ['id', 'titleField', 'reference', 'startWork', 'views', 'queries', 'layouts', 'boards', 'myRecords'],
  startWork: ['statusField', 'startStatus', 'doneStatus', 'userField'],
  view: ['id', 'name', 'columns'],
  query: ['name', 'view', 'filters', 'sort', 'columns'],
  filter: ['column', 'operator', 'value', 'lookupApp'],
  sort: ['column', 'direction'],
  layout: ['view', 'order', 'hidden', 'frozen'],
  board: ['view', 'column', 'lanes', 'fields'],
} as const;

export const FLOWS: readonly SharedFlow[] = ['authorizationCode', 'clientCredentials'];
export const REDIRECT_MODES: readonly SharedRedirectMode[] = ['uriHandler', 'loopback'];

export const SECRET_MESSAGE =
  "Secrets and tokens never go in .vscode/portal.json, which the whole team reads in git: remove it. Portal Explorer asks for the Secret Key when you sign in and keeps it in VS Code's secret storage, on your machine only.";

/** Keys that name a credential, in any spelling (clientSecret, client_secret, accessToken, password…). */
const SECRET_KEY = /secret|token|passw|api[-_]?key|authori[sz]ation|bearer|credential|cookie/i;
/** Values that are credentials whatever their key: a bearer header or a JWT. */
const SECRET_VALUE = /^\s*bearer\s+\S|^eyJ[\w-]+\.[\w-]+\.[\w-]*$/i;
/** Settings a repository must never turn on for whoever opens it. */
const RISKY_KEY = /agent|allowChanges|webhook|bindAddress|autoStart|settings/i;

class Reader {
  readonly problems: FileProblem[] = [];

  problem(node: Node, message: string, severity: FileProblem['severity'] = 'error'): void {
    this.problems.push({ message, offset: node.offset, length: node.length, severity });
  }

  /** The object's properties, each key checked against `allowed`; unknown ones are Problems and left out. */
  properties(node: Node, allowed: readonly string[], what: string): Map<string, Node> {
    const result = new Map<string, Node>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode || !valueNode) continue;
      const key = String(keyNode.value);
      if (SECRET_KEY.test(key)) {
        this.problem(property, SECRET_MESSAGE);
        continue;
      }
      if (!allowed.includes(key)) {
        if (RISKY_KEY.test(key))
          this.problem(
            keyNode,
            `"${key}" is not read from the workspace file: the agent's write tools and the webhook receiver are each person's choice, in their own settings.`,
            'warning',
          );
        else this.problem(keyNode, `Unknown property "${key}" of ${what}; expected one of: ${allowed.join(', ')}.`, 'warning');
        continue;
      }
      if (result.has(key)) {
        this.problem(keyNode, `"${key}" is given twice; the first is used.`, 'warning');
        continue;
      }
      result.set(key, valueNode);
    }
    return result;
  }

  object(node: Node | undefined, what: string): node is Node {
    if (node?.type === 'object') return true;
    if (node) this.problem(node, `${what} must be an object.`);
    return false;
  }

  array(node: Node | undefined, what: string): Node[] {
    if (!node) return [];
    if (node.type !== 'array') {
      this.problem(node, `${what} must be a list.`);
      return [];
    }
    return node.children ?? [];
  }

  /** A string that is not empty (trimmed), or undefined with a Problem; `optional` spares the Problem when absent. */
  text(node: Node | undefined, parent: Node, what: string, optional = false): string | undefined {
    if (!node) {
      if (!optional) this.problem(parent, `${what} is missing.`);
      return undefined;
    }
    if (node.type !== 'string' || typeof node.value !== 'string' || node.value.trim() === '') {
      this.problem(node, `${what} must be a string that is not empty.`);
      return undefined;
    }
    if (SECRET_VALUE.test(node.value)) {
      this.problem(node, SECRET_MESSAGE);
      return undefined;
    }
    return node.value.trim();
  }

  choice<T extends string>(node: Node | undefined, choices: readonly T[], what: string): T | undefined {
    if (!node) return undefined;
    if (node.type === 'string' && (choices as readonly string[]).includes(String(node.value))) return node.value as T;
    this.problem(node, `${what} must be one of: ${choices.join(', ')}.`);
    return undefined;
  }

  strings(node: Node | undefined, what: string): string[] | undefined {
    if (!node) return undefined;
    const items = this.array(node, what);
    if (node.type !== 'array') return undefined;
    const result: string[] = [];
    for (const item of items) {
      if (item.type === 'string' && typeof item.value === 'string' && item.value !== '') result.push(item.value);
      else this.problem(item, `Each entry of ${what} must be a column's field_id_in_data (a string).`);
    }
    return result;
  }
}

function baseUrlOf(reader: Reader, node: Node | undefined, parent: Node): string | undefined {
  const text = reader.text(node, parent, 'The portal\'s "baseUrl"');
  if (text === undefined || !node) return undefined;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http');
    if (url.username || url.password) {
      reader.problem(node, SECRET_MESSAGE);
      return undefined;
    }
    return text.replace(/\/+$/, '');
  } catch {
    reader.problem(node, `"${text}" is not an http(s) address.`);
    return undefined;
  }
}

function filtersOf(reader: Reader, node: Node | undefined): ViewFilter[] | undefined {
  const filters: ViewFilter[] = [];
  for (const item of reader.array(node, '"filters"')) {
    if (!reader.object(item, 'A filter')) return undefined;
    const fields = reader.properties(item, FILE_KEYS.filter, 'a filter');
    const column = reader.text(fields.get('column'), item, 'The filter\'s "column"');
    const operatorNode = fields.get('operator');
    const operator = operatorNode?.value;
    if (!operatorNode || !isFilterOperatorName(operator)) {
      reader.problem(
        operatorNode ?? item,
        '"operator" must be one of: contains, doesNotContain, equals, doesNotEqual, empty, notEmpty, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual.',
      );
      return undefined;
    }
    const value = reader.text(fields.get('value'), item, 'The filter\'s "value"', true);
    const lookupApp = reader.text(fields.get('lookupApp'), item, '"lookupApp"', true);
    if (column === undefined) return undefined;
    filters.push({ column, operator, ...(value !== undefined ? { value } : {}), ...(lookupApp !== undefined ? { lookupApp } : {}) });
  }
  return filters;
}

function sortOf(reader: Reader, node: Node | undefined): SharedSort[] | undefined {
  if (!node) return undefined;
  const sort: SharedSort[] = [];
  for (const item of reader.array(node, '"sort"')) {
    if (!reader.object(item, 'A sort')) continue;
    const fields = reader.properties(item, FILE_KEYS.sort, 'a sort');
    const column = reader.text(fields.get('column'), item, 'The sort\'s "column"');
    const direction = reader.choice(fields.get('direction'), ['asc', 'desc'] as const, '"direction"') ?? 'asc';
    if (column !== undefined) sort.push({ column, direction });
  }
  return sort;
}

function startWorkOf(reader: Reader, node: Node | undefined): SharedStartWork | undefined {
  if (node === undefined || !reader.object(node, '"startWork"')) return undefined;
  const fields = reader.properties(node, FILE_KEYS.startWork, '"startWork"');
  const read = (key: (typeof FILE_KEYS.startWork)[number]) => reader.text(fields.get(key), node, `"${key}"`, true);
  const [statusField, startStatus, doneStatus, userField] = [
    read('statusField'),
    read('startStatus'),
    read('doneStatus'),
    read('userField'),
  ];
  if (statusField === undefined && (startStatus !== undefined || doneStatus !== undefined))
    reader.problem(node, '"startStatus" and "doneStatus" are values of "statusField": name the column too.', 'warning');
  return {
    ...(statusField !== undefined ? { statusField } : {}),
    ...(startStatus !== undefined ? { startStatus } : {}),
    ...(doneStatus !== undefined ? { doneStatus } : {}),
    ...(userField !== undefined ? { userField } : {}),
  };
}

function appOf(reader: Reader, node: Node): SharedApp | undefined {
  if (!reader.object(node, 'An app')) return undefined;
  const fields = reader.properties(node, FILE_KEYS.app, 'an app');
  const appId = reader.text(fields.get('id'), node, 'The app\'s "id"');
  if (appId === undefined) return undefined;
  const titleField = reader.text(fields.get('titleField'), node, '"titleField"', true);
  const startWork = startWorkOf(reader, fields.get('startWork'));
  const referenceNode = fields.get('reference');
  let reference = reader.text(referenceNode, node, '"reference"', true);
  const referenceProblem = reference === undefined ? undefined : checkTemplate(reference);
  if (referenceNode && referenceProblem !== undefined) {
    reader.problem(referenceNode, referenceProblem);
    reference = undefined;
  }
  const views: SharedView[] = [];
  for (const item of reader.array(fields.get('views'), '"views"')) {
    if (!reader.object(item, 'A view')) continue;
    const view = reader.properties(item, FILE_KEYS.view, 'a view');
    const viewId = reader.text(view.get('id'), item, 'The view\'s "id"');
    if (viewId === undefined) continue;
    if (views.some((known) => known.viewId === viewId)) {
      reader.problem(item, `View ${viewId} is listed twice in app ${appId}; the first is used.`, 'warning');
      continue;
    }
    const name = reader.text(view.get('name'), item, 'The view\'s "name"', true) ?? `View ${viewId}`;
    const columns = reader.strings(view.get('columns'), '"columns"');
    views.push({ viewId, name, ...(columns ? { columns } : {}) });
  }
  const queries: SharedQuery[] = [];
  for (const item of reader.array(fields.get('queries'), '"queries"')) {
    if (!reader.object(item, 'A saved query')) continue;
    const query = reader.properties(item, FILE_KEYS.query, 'a saved query');
    const name = reader.text(query.get('name'), item, 'The query\'s "name"');
    const viewId = reader.text(query.get('view'), item, 'The query\'s "view" (a view id)');
    const filters = filtersOf(reader, query.get('filters'));
    const sort = sortOf(reader, query.get('sort'));
    const columns = reader.strings(query.get('columns'), '"columns"');
    if (name === undefined || viewId === undefined || filters === undefined) continue;
    queries.push({ name, viewId, filters, ...(sort ? { sort } : {}), ...(columns ? { columns } : {}) });
  }
  const layouts: SharedLayout[] = [];
  for (const item of reader.array(fields.get('layouts'), '"layouts"')) {
    if (!reader.object(item, 'A grid layout')) continue;
    const layout = reader.properties(item, FILE_KEYS.layout, 'a grid layout');
    const viewId = reader.text(layout.get('view'), item, 'The layout\'s "view" (a view id)');
    const frozenNode = layout.get('frozen');
    const frozen = frozenNode?.value;
    if (frozenNode && (typeof frozen !== 'number' || !Number.isInteger(frozen) || frozen < 0))
      reader.problem(frozenNode, '"frozen" must be a whole number of columns, 0 or more.');
    const order = reader.strings(layout.get('order'), '"order"') ?? [];
    const hidden = reader.strings(layout.get('hidden'), '"hidden"') ?? [];
    if (viewId === undefined) continue;
    layouts.push({ viewId, order, hidden, frozen: typeof frozen === 'number' && Number.isInteger(frozen) && frozen >= 0 ? frozen : 0 });
  }
  const boards: SharedBoard[] = [];
  for (const item of reader.array(fields.get('boards'), '"boards"')) {
    if (!reader.object(item, 'A board')) continue;
    const board = reader.properties(item, FILE_KEYS.board, 'a board');
    const viewId = reader.text(board.get('view'), item, 'The board\'s "view" (a view id)');
    const column = reader.text(board.get('column'), item, 'The board\'s "column" (a Choice column\'s field_id_in_data)');
    const lanes = reader.text(board.get('lanes'), item, 'The board\'s "lanes"', true);
    const cardFields = reader.strings(board.get('fields'), '"fields"') ?? [];
    if (viewId === undefined || column === undefined) continue;
    boards.push({ viewId, column, ...(lanes !== undefined ? { lanes } : {}), fields: cardFields });
  }
  const myRecords = reader.strings(fields.get('myRecords'), '"myRecords"') ?? [];
  return {
    appId,
    ...(titleField !== undefined ? { titleField } : {}),
    ...(startWork !== undefined ? { startWork } : {}),
    ...(reference !== undefined ? { reference } : {}),
    views,
    queries,
    layouts,
    ...(boards.length > 0 ? { boards } : {}),
    ...(myRecords.length > 0 ? { myRecords } : {}),
  };
}

function portalOf(reader: Reader, node: Node): SharedPortal | undefined {
  if (!reader.object(node, 'A portal')) return undefined;
  const fields = reader.properties(node, FILE_KEYS.portal, 'a portal');
  const name = reader.text(fields.get('name'), node, 'The portal\'s "name"');
  const baseUrl = baseUrlOf(reader, fields.get('baseUrl'), node);
  const clientId = reader.text(fields.get('clientId'), node, 'The portal\'s "clientId"');
  const flow = reader.choice(fields.get('flow'), FLOWS, '"flow"') ?? 'authorizationCode';
  const redirectMode = reader.choice(fields.get('redirectMode'), REDIRECT_MODES, '"redirectMode"');
  const template = reader.text(fields.get('webUrlTemplate'), node, '"webUrlTemplate"', true);
  if (name === undefined || baseUrl === undefined || clientId === undefined) return undefined;
  const apps: SharedApp[] = [];
  for (const item of reader.array(fields.get('apps'), '"apps"')) {
    const app = appOf(reader, item);
    if (!app) continue;
    if (apps.some((known) => known.appId === app.appId))
      reader.problem(item, `App ${app.appId} is listed twice; the first is used.`, 'warning');
    else apps.push(app);
  }
  return {
    name,
    baseUrl,
    clientId,
    flow,
    ...(redirectMode ? { redirectMode } : {}),
    ...(template !== undefined ? { webUrlTemplate: template } : {}),
    apps,
  };
}

/** Reads the file's text (JSON with comments); never throws: what cannot be used is a Problem. */
export function parseWorkspaceFile(text: string): WorkspaceFile {
  const reader = new Reader();
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  for (const error of errors)
    reader.problems.push({
      message: `Not valid JSON: ${printParseErrorCode(error.error)}.`,
      offset: error.offset,
      length: Math.max(error.length, 1),
      severity: 'error',
    });
  if (!root) return { portals: [], problems: reader.problems };
  if (!reader.object(root, 'The file')) return { portals: [], problems: reader.problems };
  const fields = reader.properties(root, FILE_KEYS.root, 'the file');
  const portals: SharedPortal[] = [];
  for (const item of reader.array(fields.get('portals'), '"portals"')) {
    const portal = portalOf(reader, item);
    if (!portal) continue;
    if (portals.some((known) => known.name.toLowerCase() === portal.name.toLowerCase()))
      reader.problem(item, `A portal named "${portal.name}" is listed twice; the first is used.`, 'warning');
    else portals.push(portal);
  }
  return { portals, problems: reader.problems };
}
