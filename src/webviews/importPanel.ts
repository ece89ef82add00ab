// The host side of the import mapping panel: holds the source, the app's columns, the mapping and the
// options; answers each change with the mapping, a preview of the first rows and what blocks the run;
// runs the dry run (nothing sent) and exports its problems; hands the run itself to the command that
// opened the panel (progress, journal, summary). One panel per source file and app.
import { basename, join, parse } from 'node:path';
import * as vscode from 'vscode';
import type { Column } from '../api/types';
import { dryRunImport } from '../import/importRun';
import { proposeMapping, setTarget, type ImportMapping } from '../import/mapping';
import {
  defaultOptions,
  importSettings,
  keyOptions,
  mappingRows,
  optionProblems,
  optionWarnings,
  previewOf,
  problemRow,
  targetOf,
  targetOptions,
} from '../import/panelState';
import type { DryRunResult, ExistingRecords, ImportSettings, RowProblem } from '../import/plan';
import { problemsCsv, uncertainPathFor } from '../import/report';
import { unreadableRows, type ImportSource, type SourceRow } from '../import/sourceFile';
import { IMPORT_VIEW_TYPE } from '../ids';
import type { AppTarget } from '../model/targets';
import { importToHostSchema } from '../shared/panelMessages';
import type { HostToImportMessage, ImportInitMessage, ImportOptions, ImportStateMessage, ImportToHostMessage } from '../shared/protocol';
import { prompter } from '../ui/prompter';
import { OpenPanels } from './openPanels';
import { Panel } from './panel';

/** Problems the panel lists; the export holds every one. */
const SHOWN_PROBLEMS = 500;

export interface ImportPanelSetup {
  target: AppTarget;
  appName: string;
  portalLabel: string;
  source: ImportSource;
  columns: readonly Column[];
  sample: readonly SourceRow[];
  views: Array<{ value: string; label: string }>;
  offerDraft: boolean;
  extensionUri: vscode.Uri;
  /** Upsert: reads the existing records through the chosen view (the dry run plans against them too). */
  existing: (options: ImportOptions) => Promise<ExistingRecords | undefined>;
  /** Runs the import (progress, journal, summary); resolves with the summary to show in the panel. */
  run: (settings: ImportSettings, options: ImportOptions) => Promise<string | undefined>;
}

function panelKey(target: AppTarget, sourcePath: string): string {
  return JSON.stringify([target.portalId, target.appId, sourcePath]);
}

export class ImportPanel {
  private static readonly open = new OpenPanels<ImportPanel>();

  /** A new panel for the file and app; one open for them already closes (its mapping is the old file's). */
  static show(setup: ImportPanelSetup): ImportPanel {
    const key = panelKey(setup.target, setup.source.path);
    ImportPanel.open.get(key)?.panel.dispose();
    return ImportPanel.open.add(key, new ImportPanel(setup));
  }

  /** Brings the panel of the file and app to the front; false when none is open in this window. */
  static reveal(target: AppTarget, sourcePath: string): boolean {
    const open = ImportPanel.open.get(panelKey(target, sourcePath));
    open?.panel.reveal();
    return open !== undefined;
  }

  readonly panel: Panel<ImportToHostMessage, HostToImportMessage>;
  private mapping: ImportMapping;
  private options: ImportOptions;
  private problems: RowProblem[] = [];
  private running = false;

  private constructor(private readonly setup: ImportPanelSetup) {
    this.mapping = proposeMapping(setup.source.columns, setup.columns);
    this.options = defaultOptions(
      setup.sample,
      this.mapping,
      setup.columns,
      Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
      setup.views[0]?.value,
    );
    this.panel = Panel.create<ImportToHostMessage, HostToImportMessage>(
      {
        viewType: IMPORT_VIEW_TYPE,
        title: `Import ${basename(setup.source.path)}`,
        bundle: 'importRecords',
        extensionUri: setup.extensionUri,
      },
      importToHostSchema,
    );
    this.panel.onMessage((message) => this.handle(message));
  }

  private state(): ImportStateMessage {
    const { columns, sample } = this.setup;
    return {
      type: 'import/state',
      mapping: mappingRows(this.mapping),
      preview: previewOf(sample, this.mapping, columns, this.options),
      problems: optionProblems(this.mapping, columns, this.options),
      warnings: optionWarnings(this.options, basename(uncertainPathFor(this.setup.source.path))),
      options: this.options,
    };
  }

  private init(): ImportInitMessage {
    const { source, columns } = this.setup;
    const formatLabel =
      source.format === 'json'
        ? 'JSON'
        : source.format === 'tsv'
          ? 'TSV'
          : `CSV (delimiter ${source.delimiter === '\t' ? 'tab' : source.delimiter})`;
    return {
      type: 'import/init',
      appName: this.setup.appName,
      portalLabel: this.setup.portalLabel,
      fileName: basename(source.path),
      formatLabel,
      targets: targetOptions(columns),
      uniqueColumns: keyOptions(columns),
      views: this.setup.views,
      offerDraft: this.setup.offerDraft,
      state: this.state(),
    };
  }

  private async handle(message: ImportToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
      case 'retry':
        await this.panel.post(this.init());
        break;
      case 'import/setTarget':
        this.mapping = setTarget(this.mapping, message.source, targetOf(message.target), this.setup.columns);
        await this.panel.post(this.state());
        break;
      case 'import/options':
        this.options = message.options;
        await this.panel.post(this.state());
        break;
      case 'import/dryRun':
        await this.dryRun();
        break;
      case 'import/exportProblems':
        await this.exportProblems();
        break;
      case 'import/run':
        await this.run();
        break;
    }
  }

  private blocked(): boolean {
    const problems = optionProblems(this.mapping, this.setup.columns, this.options);
    if (problems.length === 0) return false;
    // A closed panel needs no message; the caller only needs the verdict.
    void this.panel.post({ type: 'import/failed', message: problems.join(' ') });
    return true;
  }

  /**
   * Whether rows the file's quotes break stop the run (they do unless the person chose to skip them): a
   * quote never closed takes the rest of the file into one cell, and a run would import the rows before
   * it and report one failure where the file has thousands of rows.
   */
  private async unreadable(): Promise<boolean> {
    if (this.options.unreadableRows === 'skip') return false;
    const rows = await unreadableRows(this.setup.source);
    if (rows.length === 0) return false;
    const which = rows.map((row) => `Row ${row.row} ${row.problem ?? 'cannot be read'}.`).join(' ');
    // As above: a closed panel needs no message.
    void this.panel.post({
      type: 'import/failed',
      message: `The import did not start: ${which} Fix the file, or choose "Skip them" under "Rows whose quotes break the file" to import the other rows (these go to the failures file).`,
    });
    return true;
  }

  private async dryRun(): Promise<void> {
    if (this.blocked()) return;
    const settings = importSettings(this.setup.target.appId, this.mapping, this.options);
    const existing = await this.setup.existing(this.options);
    const result: DryRunResult = await dryRunImport({ source: this.setup.source, settings, columns: this.setup.columns, existing });
    this.problems = result.problems;
    await this.panel.post({
      type: 'import/dryRunResult',
      rows: result.rows,
      creates: result.creates,
      updates: result.updates,
      unchanged: result.unchanged,
      failingRows: result.failingRows,
      problems: result.problems.slice(0, SHOWN_PROBLEMS).map(problemRow),
      totalProblems: result.problems.length,
    });
  }

  private async exportProblems(): Promise<void> {
    if (this.problems.length === 0)
      throw new Error('There is nothing to export: run the dry run first; it lists the rows that would fail.');
    const source = parse(this.setup.source.path);
    const uri = await prompter().saveDialog({
      title: `Export the ${this.problems.length} problems of the dry run`,
      saveLabel: 'Export',
      filters: { 'CSV files': ['csv'] },
      defaultUri: vscode.Uri.file(join(source.dir, `${source.name}.dry-run.csv`)),
    });
    if (!uri) return;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(await problemsCsv(this.problems)));
    // The message waits for no one: the export is written.
    void prompter().info(`Exported ${this.problems.length} problems to ${vscode.workspace.asRelativePath(uri)}.`);
  }

  private async run(): Promise<void> {
    if (this.running || this.blocked() || (await this.unreadable())) return;
    this.running = true;
    await this.panel.post({ type: 'import/running', running: true });
    let summary: string | undefined;
    try {
      summary = await this.setup.run(importSettings(this.setup.target.appId, this.mapping, this.options), this.options);
    } finally {
      this.running = false;
      await this.panel.post({ type: 'import/running', running: false, ...(summary ? { summary } : {}) });
    }
  }
}
