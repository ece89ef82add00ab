// "Portal: Import Records…": an app (from the tree, or picked), a CSV/TSV/JSON file, the mapping panel;
// then the run: the journal beside the file (or in the extension's storage when that folder cannot be
// written), Resume / Start over when an unfinished run of the same file is found, progress with Cancel,
// and a summary with the failures file. While a run of the file goes on (in this window or another),
// starting it again is refused, saying where it runs: the journal's lock (journalLock.ts) is held from
// the Resume question to the journal's removal, so that neither Start Over nor the end of one run removes
// the journal under another.

import { cancelled } from '../api/errors';
import { rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { Stores } from '../catalog/stores';
import { journalSettings, readExisting, runImport } from '../import/importRun';
import { readJournalJob, settingsDifferences } from '../import/journal';
import { heldHere, JournalBusyError, JournalLock, journalHolder, whereHeld, type LockHolder } from '../import/journalLock';
import { importPlaces } from '../import/places';
import { sampleRows } from '../import/panelState';
import type { ImportSettings } from '../import/plan';
import { summaryText } from '../import/report';
import type { RecordChanged } from '../import/runner';
import { openSource, type ImportSource } from '../import/sourceFile';
import { appTargetOf, type AppTarget } from '../model/targets';
import type { ImportOptions } from '../shared/protocol';
import { prompter } from '../ui/prompter';
import { ImportPanel } from '../webviews/importPanel';
import { pickApp } from './pickers';
import { withRunProgress } from './runProgress';

export type ImportDeps = Pick<Stores, 'portals' | 'catalog' | 'views' | 'rows' | 'recordEvents' | 'versions'> & {
  readonly extensionUri: vscode.Uri;
  /** The extension's own storage folder: journals that cannot live beside their file, bulk change journals. */
  readonly storageFolder: string;
};

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function openImport(deps: ImportDeps, arg: unknown): Promise<ImportPanel> {
  const target = appTargetOf(arg) ?? (await pickApp(deps.portals, deps.catalog, { title: 'Import Records' }));
  if (!target) throw cancelled('Import Records');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const picked = await prompter().openDialog({
    title: 'Import records from',
    openLabel: 'Import',
    canSelectMany: false,
    filters: { 'CSV, TSV or JSON': ['csv', 'tsv', 'tab', 'txt', 'json'], 'All files': ['*'] },
    ...(folder ? { defaultUri: folder } : {}),
  });
  const file = picked?.[0];
  if (!file) throw cancelled('Import Records');
  // Before the panel: a new one would close the panel of the run that goes on.
  const holder = await journalHolder((await importPlaces(file.fsPath, deps.storageFolder)).journalPath);
  if (holder) refuse(target, file.fsPath, holder);
  const [source, columns, info] = await Promise.all([
    openSource(file.fsPath),
    deps.catalog.columns(target.portalId, target.appId),
    deps.catalog.app(target.portalId, target.appId).catch(() => undefined),
  ]);
  const sample = await sampleRows(source);
  const client = deps.portals.client(target.portalId);
  const views = deps.views
    .list(target.portalId, target.appId)
    .map((view) => ({ value: view.viewId, label: `${view.name} (view ${view.viewId})` }));
  const existing = async (options: ImportOptions) =>
    options.mode === 'upsert' && options.viewId ? readExisting(client, target.appId, options.viewId, options.matchField) : undefined;
  return ImportPanel.show({
    target,
    appName: info?.name ?? `App ${target.appId}`,
    portalLabel: deps.portals.get(target.portalId)?.label ?? target.portalId,
    source,
    columns,
    sample,
    views,
    offerDraft: info?.draftMode !== false,
    extensionUri: deps.extensionUri,
    existing,
    run: (settings, options) => runImportWithProgress(deps, target, source, settings, options, existing),
  });
}

/** What a run of the panel's settings needs. */
type ImportRun = [
  deps: ImportDeps,
  target: AppTarget,
  source: ImportSource,
  settings: ImportSettings,
  options: ImportOptions,
  readExistingRecords: (options: ImportOptions) => Promise<Awaited<ReturnType<typeof readExisting>> | undefined>,
];

async function runImportWithProgress(...run: ImportRun): Promise<string | undefined> {
  const [deps, target, source] = run;
  const { journalPath, outputFolder } = await importPlaces(source.path, deps.storageFolder);
  const lock = await JournalLock.acquire(journalPath).catch((error: unknown) => {
    if (error instanceof JournalBusyError) refuse(target, source.path, error.holder);
    throw error;
  });
  try {
    return await runLocked({ journalPath, outputFolder, lock }, ...run);
  } finally {
    await lock.release();
  }
}

/** Says where the run of the file goes on, offers to show it when it is in this window, and stops. */
function refuse(target: AppTarget, sourcePath: string, holder: LockHolder): never {
  const here = heldHere(holder);
  const actions = here ? ['Show It'] : [];
  // Not awaited: the command ends now (as cancelled, so the boundary adds nothing); the warning stays.
  void prompter()
    .warn(
      `An import of ${basename(sourcePath)} is already running ${whereHeld(holder)}. Wait for it to end, or cancel it and import the file again to resume.`,
      {},
      ...actions,
    )
    .then((answer) => {
      if (answer === 'Show It' && !ImportPanel.reveal(target, sourcePath)) {
        // A last word after the user's answer; nothing waits for it.
        void prompter().info('Its panel is closed; its progress is in the notifications (the bell in the status bar).');
      }
    });
  throw cancelled('Import Records');
}

async function runLocked(
  { journalPath, outputFolder, lock }: { journalPath: string; outputFolder: string | undefined; lock: JournalLock },
  ...[deps, target, source, settings, options, readExistingRecords]: ImportRun
): Promise<string | undefined> {
  const name = basename(source.path);
  if (await exists(journalPath)) {
    // A journal resumes only with the settings it started with: otherwise its rows would be made two ways.
    const earlier = await readJournalJob(journalPath);
    const differences = earlier?.settings ? settingsDifferences(earlier.settings, journalSettings(settings)) : [];
    const answer =
      differences.length > 0
        ? await prompter().warn(
            `An earlier import of ${name} did not finish, with other settings: ${differences.join('; ')}. To resume it, choose those settings again and import; or start over now (records it created stay).`,
            { modal: true },
            'Start Over',
          )
        : await prompter().warn(
            `An earlier import of ${name} did not finish. Resume it (rows already done are not sent again), or start over (records it created stay)?`,
            { modal: true },
            'Resume',
            'Start Over',
          );
    if (answer === undefined) throw cancelled('The import');
    if (answer === 'Start Over') await rm(journalPath, { force: true });
  }
  const columns = await deps.catalog.columns(target.portalId, target.appId);
  const client = deps.portals.client(target.portalId, 'bulk');
  const existing = await readExistingRecords(options);
  const result = await withRunProgress(`Importing ${name}`, async (signal, onProgress) => {
    let total = 0;
    for await (const _row of source.rows(signal)) total += 1;
    const onRecordChanged = announcer(deps, target, 'import');
    return runImport({
      source,
      settings,
      columns,
      writer: client,
      limiter: deps.portals.limiter(target.portalId),
      existing,
      lookupViewId: options.viewId,
      journalPath,
      lock,
      failuresFolder: outputFolder,
      total,
      signal,
      onProgress,
      onRecordChanged,
      history: { versions: deps.versions, portalId: target.portalId, cause: 'import' },
    });
  });
  // The tree's rows of this app's views are read again when next shown (also for creates whose answer was lost).
  deps.rows.drop(target.portalId, target.appId);
  const summary = summaryText(result.counts);
  if (result.cancelled) {
    // The message waits for no one: the import is over.
    void prompter().info(`Import of ${name} cancelled: ${summary}. Import the same file again to resume where it stopped.`);
    return `Cancelled: ${summary}.`;
  }
  // A finished run needs no journal, unless rows are uncertain: the next run looks for their records first.
  if (result.uncertain.length === 0) await rm(journalPath, { force: true });
  const files = { 'Open Failures File': result.failuresPath, 'Open Uncertain Rows': result.uncertainPath };
  const actions = (Object.keys(files) as Array<keyof typeof files>).filter((action) => files[action] !== undefined);
  const failed = result.failuresPath ? ` The failed rows are in ${basename(result.failuresPath)}: fix them and import that file.` : '';
  const uncertain = result.uncertainPath
    ? ` ${result.uncertain.length} may have been created though the portal's answer was lost; they could not be looked up (no key column and view, or the portal refused the look-up), so they were not sent again. They are in ${basename(result.uncertainPath)}: check the app for each before importing any again.`
    : '';
  // The panel gets the summary now; a button, if clicked later, opens its file on its own.
  void prompter()
    .info(`Imported ${name}: ${summary}.${failed}${uncertain}`, ...actions)
    .then(async (answer) => {
      const file = answer && files[answer];
      if (file) await vscode.window.showTextDocument(vscode.Uri.file(file));
    });
  return `${summary}.${result.failuresPath ? ` Failures: ${result.failuresPath}` : ''}${result.uncertainPath ? ` Uncertain rows (check them in the app): ${result.uncertainPath}` : ''}`;
}

/**
 * Announces each record a run changed, as the portal takes it: open documents of those records reload
 * (or meet the conflict check when dirty) and the tree reads the app's views again. One event per record
 * rather than one per run: a document is found by its record, and a long import shows its changes as it
 * goes. The cost stays per record only where a record is shown: the documents look up an open one by
 * key, and the tree gathers a burst of changes into one read per app (ExplorerTree.onRecordChanged).
 */
export function announcer(
  deps: Pick<ImportDeps, 'recordEvents'>,
  target: AppTarget,
  source: 'import' | 'bulk',
): (change: RecordChanged) => void {
  return ({ recordId, kind }) =>
    deps.recordEvents.fire({ portalId: target.portalId, appId: target.appId, recordId, kind, origin: 'local', source });
}
