// The import mapping panel (view type portal.importMapping): which app column each file column feeds,
// the options of the run, a preview of the first rows as they will be sent, the dry run's report. The
// host holds the mapping and answers every change with the new state (import/state).
import type {
  HostToImportMessage,
  ImportDryRunMessage,
  ImportInitMessage,
  ImportOptions,
  ImportStateMessage,
  ImportTargetValue,
  ImportToHostMessage,
} from '../../src/shared/protocol';
import { channel } from '../common/vscodeApi';
import { button } from '../components/button';
import { clear, el, scrollRegion } from '../components/dom';
import { dropdown, textField, type Input, type Option } from '../components/inputs';
import { messageBar } from '../components/messageBar';
import { registerToolkit } from '../components/toolkit';
import '../components/panel.css';
import './importRecords.css';

registerToolkit();
const host = channel<HostToImportMessage, ImportToHostMessage, Record<string, never>>('import/');
const root = document.getElementById('root') ?? document.body;
const banner = messageBar('import-message');
const title = el('h1', { text: 'Import records' });
const subtitle = el('p', { className: 'subtitle' });
const mappingBody = el('tbody');
const optionsArea = el('div', { className: 'import-options' });
const problemsList = el('ul', { id: 'import-problems', className: 'import-problems' });
const warningsList = el('ul', { id: 'import-warnings', className: 'import-warnings' });
const previewTable = el('table', { id: 'import-preview', className: 'import-table' });
const report = el('section', { id: 'dry-run-report', className: 'dry-run-report', attrs: { hidden: '' } });
const dryRunButton = button('Dry Run', { id: 'dry-run', onClick: () => host.post({ type: 'import/dryRun' }) });
const importButton = button('Import', { id: 'import', appearance: 'primary', onClick: () => host.post({ type: 'import/run' }) });

let init: ImportInitMessage | undefined;
let options: ImportOptions | undefined;
const optionInputs: Partial<Record<keyof ImportOptions, Input>> = {};

root.classList.add('import-layout');
root.append(
  el('header', {}, title, subtitle),
  banner.element,
  el('h2', { text: 'Columns' }),
  scrollRegion(
    'Columns',
    el(
      'table',
      { id: 'import-mapping', className: 'import-table' },
      el('thead', {}, el('tr', {}, el('th', { text: 'File column' }), el('th', { text: 'App column' }), el('th', { text: 'Note' }))),
      mappingBody,
    ),
  ),
  el('h2', { text: 'Options' }),
  optionsArea,
  problemsList,
  warningsList,
  el('h2', { text: 'Preview: the first rows as they will be sent' }),
  scrollRegion('Preview', previewTable),
  el('div', { className: 'toolbar' }, dryRunButton, importButton),
  report,
);

function sendOptions(): void {
  if (!options) return;
  const value = (key: keyof ImportOptions): string => optionInputs[key]?.value ?? '';
  const next: ImportOptions = {
    mode: value('mode') === 'upsert' ? 'upsert' : 'create',
    draft: value('draft') === 'draft' ? 'draft' : 'published',
    decimalSeparator: value('decimalSeparator') === ',' ? ',' : '.',
    timeZone: value('timeZone').trim() || 'UTC',
    ...(value('matchField') ? { matchField: value('matchField') } : {}),
    ...(value('viewId').trim() ? { viewId: value('viewId').trim() } : {}),
    ...(value('unreadableRows') === 'skip' ? { unreadableRows: 'skip' as const } : {}),
  };
  host.post({ type: 'import/options', options: next });
}

/** One option of the run: a choice among `items`, or typed text when there are none. */
interface OptionSpec {
  readonly key: keyof ImportOptions;
  readonly label: string;
  readonly value: string;
  readonly items?: readonly Option[];
  readonly placeholder?: string;
}

function optionInput({ key, label, value, items, placeholder }: OptionSpec): HTMLElement {
  const caption = document.createTextNode(label);
  const input = items ? dropdown({ label: caption, options: items, value }) : textField({ label: caption, placeholder });
  if (!items) input.value = value;
  input.element.id = `option-${key}`;
  input.onCommit(sendOptions);
  optionInputs[key] = input;
  return input.element;
}

/** Choices written as [value, label]. */
function pairs(...choices: readonly (readonly [string, string])[]): Option[] {
  return choices.map(([value, label]) => ({ value, label }));
}

function optionSpecs(message: ImportInitMessage): OptionSpec[] {
  const current = message.state.options;
  const viewItems = message.views.length > 0 ? [{ value: '', label: 'Choose a view…' }, ...message.views] : undefined;
  const specs: (OptionSpec | false)[] = [
    {
      key: 'mode',
      label: 'Mode',
      value: current.mode,
      items: pairs(['create', 'Create every row'], ['upsert', 'Upsert: update matching records, create the others']),
    },
    {
      key: 'matchField',
      label: 'Key (a unique column)',
      value: current.matchField ?? '',
      items: [{ value: '', label: 'None (upsert: record id column only)' }, ...message.uniqueColumns],
    },
    // Without views to offer, the view is typed by its id.
    {
      key: 'viewId',
      label: viewItems ? 'View of existing records' : 'View of existing records (id)',
      value: current.viewId ?? '',
      items: viewItems,
      placeholder: 'e.g. 1',
    },
    message.offerDraft && {
      key: 'draft',
      label: 'Records',
      value: current.draft,
      items: pairs(['published', 'Published'], ['draft', 'Drafts']),
    },
    {
      key: 'decimalSeparator',
      label: 'Decimal separator',
      value: current.decimalSeparator,
      items: pairs(['.', 'Point (1234.5)'], [',', 'Comma (1234,5)']),
    },
    { key: 'timeZone', label: 'Time zone of date-times without an offset', value: current.timeZone },
    {
      key: 'unreadableRows',
      label: 'Rows whose quotes break the file',
      value: current.unreadableRows ?? 'stop',
      items: pairs(['stop', 'Stop: the import does not start'], ['skip', 'Skip them (to the failures file)']),
    },
  ];
  return specs.filter((spec): spec is OptionSpec => spec !== false);
}

function renderOptions(message: ImportInitMessage): void {
  clear(optionsArea);
  optionsArea.append(...optionSpecs(message).map(optionInput));
}

function renderState(state: ImportStateMessage): void {
  options = state.options;
  const targets = init?.targets ?? [];
  const items: Option[] = targets.map((target) => ({
    value: target.value,
    label: target.readOnly ? `${target.label} — read-only` : target.label,
  }));
  clear(mappingBody);
  for (const row of state.mapping) {
    const select = dropdown({ ariaLabel: `App column for ${row.source}`, options: items, value: row.target });
    select.onCommit(() => host.post({ type: 'import/setTarget', source: row.source, target: select.value as ImportTargetValue }));
    const note = row.ignoredWhy ? `Ignored: ${row.ignoredWhy}` : row.target === 'recordId' ? 'Finds the record to update' : '';
    mappingBody.append(
      el(
        'tr',
        { className: row.ignoredWhy ? 'ignored' : undefined },
        el('th', { text: row.source, attrs: { scope: 'row' } }),
        el('td', {}, select.element),
        el('td', { className: 'note', text: note }),
      ),
    );
  }
  clear(problemsList);
  for (const problem of state.problems) problemsList.append(el('li', { text: problem }));
  clear(warningsList);
  for (const warning of state.warnings) warningsList.append(el('li', { text: warning }));
  importButton.disabled = state.problems.length > 0;
  dryRunButton.disabled = state.problems.length > 0;
  clear(previewTable);
  previewTable.append(
    el('thead', {}, el('tr', {}, el('th', { text: 'Row' }), ...state.preview.columns.map((name) => el('th', { text: name })))),
  );
  const body = el('tbody');
  for (const row of state.preview.rows) {
    const cells = row.problem
      ? [el('td', { className: 'problem', text: row.problem, attrs: { colspan: String(Math.max(1, state.preview.columns.length)) } })]
      : row.cells.map((cell) =>
          el('td', {
            className: cell.problem ? 'problem' : undefined,
            text: cell.problem ? `${cell.value} ⚠ ${cell.problem}` : cell.value,
          }),
        );
    body.append(el('tr', {}, el('th', { text: String(row.row), attrs: { scope: 'row' } }), ...cells));
  }
  previewTable.append(body);
}

function renderReport(result: ImportDryRunMessage): void {
  clear(report);
  report.hidden = false;
  const counts = `${result.rows} rows: ${result.creates} to create, ${result.updates} to update, ${result.unchanged} unchanged, ${result.failingRows} would fail.`;
  report.append(el('h2', { text: 'Dry run (nothing was sent)' }), el('p', { id: 'dry-run-summary', text: counts }));
  if (result.problems.length === 0) return;
  const table = el(
    'table',
    { id: 'dry-run-problems', className: 'import-table' },
    el('thead', {}, el('tr', {}, ...['Row', 'Column', 'Value', 'Expected', 'Problem'].map((name) => el('th', { text: name })))),
  );
  const body = el('tbody');
  for (const problem of result.problems)
    body.append(
      el(
        'tr',
        {},
        ...[String(problem.row), problem.column, problem.value, problem.expected, problem.message].map((text) => el('td', { text })),
      ),
    );
  table.append(body);
  const more =
    result.totalProblems > result.problems.length
      ? el('p', { text: `The first ${result.problems.length} of ${result.totalProblems} problems; the export holds them all.` })
      : undefined;
  report.append(
    scrollRegion('Rows that would fail', table),
    ...(more ? [more] : []),
    el(
      'div',
      { className: 'toolbar' },
      button('Export the List…', { id: 'export-problems', onClick: () => host.post({ type: 'import/exportProblems' }) }),
    ),
  );
}

host.onMessage((message) => {
  switch (message.type) {
    case 'import/init':
      init = message;
      title.textContent = `Import ${message.fileName} into ${message.appName}`;
      subtitle.textContent = `${message.portalLabel} · ${message.formatLabel}`;
      renderOptions(message);
      renderState(message.state);
      break;
    case 'import/state':
      renderState(message);
      break;
    case 'import/dryRunResult':
      banner.hide();
      renderReport(message);
      break;
    case 'import/running':
      importButton.disabled = message.running;
      dryRunButton.disabled = message.running;
      if (message.running) banner.show('info', 'Importing… (progress and Cancel are in the notification)');
      else if (message.summary?.startsWith('Cancelled: '))
        banner.show('info', `Import cancelled: ${message.summary.slice('Cancelled: '.length)} Import again to resume where it stopped.`);
      else if (message.summary) banner.show('success', `Import finished: ${message.summary}`);
      else banner.hide();
      break;
    case 'import/failed':
      banner.show('error', message.message);
      break;
  }
});
host.post({ type: 'ready' });
