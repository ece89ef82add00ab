// Start Work on Record… and Stop Work (issue 33): a branch for the record through VS Code's Git extension,
// the team's status and the user set on the record through the conflict-checked update of the record store
// (src/records/store.ts: a conflict is shown, never overwritten), the record in the status bar, and its
// reference in the commit message box. The record is taken from the command's argument (a tree item, a
// record document, a hover's { portalId, appId, recordId }), the active record document, or typed in as a
// reference (TCK-42) or an id.
import { cancelled } from '../api/errors';
import * as vscode from 'vscode';
import { myEmailOn } from '../catalog/me';
import type { Stores } from '../catalog/stores';
import { displayValue, chooseTitleField } from '../catalog/titleField';
import { gitApi, repositoryForWork, type GitRepository } from '../codeWork/git';
import { workBranches, type WorkRecord } from '../codeWork/workBranches';
import { WORK_COMMANDS } from '../ids';
import { createLogger } from '../log';
import { recordUri } from '../model/recordUri';
import { recordTargetOf, type AppTarget, type RecordTarget } from '../model/targets';
import { RecordConflict, RecordStore, type RecordCopy } from '../records/store';
import { findReferences, formatReference, type ReferencePattern } from '../references/patterns';
import { setting } from '../settings/settings';
import { prompter } from '../ui/prompter';
import { branchName } from '../work/branchName';
import { choiceNamed, matchConvention, startEdit, type Convention } from '../work/convention';
import { activeRecordTarget } from './actionTargets';
import { pickApp, pickRecord } from './pickers';
import type { CommandTable } from './register';
import { openRecord } from '../webviews/openRecord';
import { createRecordFromCode } from './recordFromCode';

const log = createLogger('work');

export type WorkParts = Pick<Stores, 'portals' | 'catalog' | 'rows' | 'titles' | 'workspace' | 'recordEvents' | 'versions'> & {
  readonly context: vscode.ExtensionContext;
  /** Every app's reference pattern (the workspace file's, else the settings'). */
  readonly patterns: () => readonly ReferencePattern[];
};

const START = 'Start Work on Record';

/** The reference commits and comments use for the record: its app's pattern, else its address. */
export function referenceOf(patterns: readonly ReferencePattern[], record: RecordTarget): string {
  const pattern = patterns.find((candidate) => candidate.portalId === record.portalId && candidate.appId === record.appId);
  return pattern ? formatReference(pattern, record.recordId) : recordUri(record).toString();
}

/** A reference (TCK-42) or an id typed in; empty: a record picked from the view last viewed. */
async function typedTarget(parts: WorkParts): Promise<RecordTarget | undefined> {
  const patterns = parts.patterns();
  const examples = patterns.slice(0, 2).map((pattern) => formatReference(pattern, '42'));
  const referenceIn = (text: string): RecordTarget | undefined => {
    const [found] = findReferences(text.trim(), patterns);
    return found && found.start === 0 && found.end === text.trim().length
      ? { portalId: found.pattern.portalId, appId: found.pattern.appId, recordId: found.recordId }
      : undefined;
  };
  const typed = await prompter().inputBox({
    title: START,
    prompt: `A reference${examples.length > 0 ? ` (${examples.join(', ')})` : ''} or a record id; leave empty to pick a record of the view you last opened.`,
    placeHolder: examples[0] ?? '42',
    validateInput: (value) =>
      value.trim() === '' || referenceIn(value) || /^\d+$/.test(value.trim())
        ? undefined
        : 'A reference such as TCK-42, or a record id (digits).',
  });
  if (typed === undefined) return undefined;
  const text = typed.trim();
  if (text === '') return pickRecord(parts, { title: START });
  const reference = referenceIn(text);
  if (reference) return reference;
  // An id alone: the app of the only pattern, else one picked.
  const apps = new Map(patterns.map((pattern) => [`${pattern.portalId}/${pattern.appId}`, pattern]));
  const [only] = apps.size === 1 ? [...apps.values()] : [];
  const app: AppTarget | undefined = only
    ? { portalId: only.portalId, appId: only.appId }
    : await pickApp(parts.portals, parts.catalog, { title: START });
  return app && { ...app, recordId: text };
}

async function titleOf(parts: WorkParts, record: RecordTarget, copy: RecordCopy): Promise<string> {
  const column = chooseTitleField(copy.columns, parts.titles.get(record));
  const value = column ? displayValue(column, copy.data[column.field_id_in_data] ?? '') : '';
  return value !== '' ? value : `Record ${record.recordId}`;
}

class Work {
  /** Start Work's own record store: the reads and conflict check a document's save has, its own bases. */
  private readonly store: RecordStore;

  constructor(private readonly parts: WorkParts) {
    this.store = new RecordStore({
      client: (portalId) => parts.portals.client(portalId),
      columns: (portalId, appId) => parts.catalog.columns(portalId, appId),
      now: () => Date.now(),
      log,
      onChanged: (record, kind) => parts.recordEvents.fire({ ...record, kind, origin: 'local' }),
      versions: { to: parts.versions, read: 'read', write: 'saved' },
    });
  }

  private get branches() {
    return workBranches(this.parts.context);
  }

  async start(arg: unknown): Promise<WorkRecord> {
    const target = recordTargetOf(arg) ?? activeRecordTarget() ?? (await typedTarget(this.parts));
    if (!target) throw cancelled(START);
    const git = await gitApi();
    await this.branches.follow(git);
    const repository = await repositoryForWork(git, (repositories) => pickRepository(repositories));
    if (!repository) throw cancelled(START);
    const copy = await this.store.read(target, 'start work', 0);
    const title = await titleOf(this.parts, target, copy);
    const appName = (await this.parts.catalog.app(target.portalId, target.appId).catch(() => undefined))?.name;
    const branch = branchName(setting('startWork.branchTemplate'), { recordId: target.recordId, title, ...(appName ? { appName } : {}) });
    const exists = await repository.getBranch(branch).then(
      () => true,
      () => false,
    );
    if (exists) await repository.checkout(branch);
    else await repository.createBranch(branch, true);
    const work: WorkRecord = {
      portalId: target.portalId,
      appId: target.appId,
      recordId: target.recordId,
      title,
      reference: referenceOf(this.parts.patterns(), target),
      branch,
    };
    await this.branches.remember(repository, work);
    fillCommitInput(repository, work.reference);
    log.info(`Start Work on record ${target.recordId} of app ${target.appId}: ${exists ? 'checked out' : 'created'} branch ${branch}.`);
    await this.setOnStart(target, copy);
    return work;
  }

  private convention(record: RecordTarget, copy: RecordCopy): Convention {
    const convention = matchConvention(copy.columns, this.parts.workspace.app(record.portalId, record.appId)?.startWork);
    if (convention.problems.length > 0)
      // Not awaited: the warning stays up while the work goes on without the parts that do not match.
      void prompter().warn(
        `Start Work's convention for app ${record.appId} in .vscode/portal.json does not match the app: ${convention.problems.join('; ')}.`,
        {},
      );
    return convention;
  }

  /** The team's status and the user, as the workspace file says; checked against the portal just before sending. */
  private async setOnStart(record: RecordTarget, copy: RecordCopy): Promise<void> {
    const convention = this.convention(record, copy);
    if (!convention.status?.start && !convention.user) return;
    const portal = this.parts.portals.get(record.portalId);
    const email =
      convention.user && portal
        ? await myEmailOn(portal, { reason: `to add you to ${convention.user.field_name} when you start work` })
        : undefined;
    const edit = startEdit(copy.data, convention, email);
    await this.update(record, copy, edit);
  }

  /** One conflict-checked update against `copy` (the record as the change was decided on). */
  private async update(record: RecordTarget, copy: RecordCopy, edit: Record<string, string>): Promise<void> {
    if (Object.keys(edit).length === 0) return;
    // The check reads the portal again right before the update: a change made since `copy` is a conflict.
    this.store.markStale(record);
    try {
      await this.store.update(record, edit, { base: copy.data, checked: false });
    } catch (error) {
      if (!(error instanceof RecordConflict)) throw error;
      const open = 'Open Record';
      const answer = await prompter().warn(
        `Record ${record.recordId} changed in the portal while Start Work read it: its status and people were not changed, so nothing of the other change is overwritten. Open it to see the change, and set them there.`,
        {},
        open,
      );
      if (answer === open) await openRecord(record.portalId, record.appId, record.recordId);
    }
  }

  /** The status bar's menu. */
  async actions(): Promise<void> {
    const current = this.branches.current();
    if (!current) {
      await prompter().info('No record is being worked on in this branch. Start with "Portal: Start Work on Record…".');
      return;
    }
    const { work } = current;
    const items = [
      {
        label: '$(go-to-file) Open Record',
        detail: `${work.reference} ${work.title}`,
        run: () => openRecord(work.portalId, work.appId, work.recordId, work.title),
      },
      { label: '$(symbol-enum) Change Status…', run: () => this.changeStatus(work) },
      { label: '$(debug-stop) Stop Work', run: () => this.stop() },
    ];
    const picked = await prompter().quickPick(items, { title: `${work.reference} ${work.title}`, placeHolder: `Branch ${work.branch}` });
    await picked?.run();
  }

  private async changeStatus(work: WorkRecord): Promise<void> {
    const copy = await this.store.read(work, 'change status', 0);
    const convention = this.convention(work, copy);
    const column = convention.status?.column;
    if (!column)
      throw new Error(
        `App ${work.appId} has no status column for Start Work: name it in .vscode/portal.json ("startWork": { "statusField": "Status", … }).`,
      );
    const current = copy.data[column.field_id_in_data] ?? '';
    const choices = column.choices ?? [];
    const items = choices
      .map((choice) => choiceNamed(column, String(choice.id)))
      .filter((option) => option !== undefined)
      .map((option) => ({ label: option.name, description: option.id === current ? 'now' : undefined, id: option.id }));
    const picked = await prompter().quickPick(items, {
      title: `${column.field_name} of ${work.reference}`,
      placeHolder: `${column.field_name}…`,
    });
    if (!picked || picked.id === current) return;
    await this.update(work, copy, { [column.field_id_in_data]: picked.id });
  }

  /** Stop Work: offers the team's "done" value, then the branch is no longer shown as the record's. */
  async stop(): Promise<void> {
    const current = this.branches.current();
    if (!current) {
      await prompter().info('No record is being worked on in this branch.');
      return;
    }
    const { work, repository } = current;
    const copy = await this.store.read(work, 'stop work', 0);
    const done = this.convention(work, copy).status;
    if (done?.done) {
      const set = `Set ${done.column.field_name} to ${done.done.name}`;
      const keep = 'Keep It';
      const answer = await prompter().info(`Stop work on ${work.reference} ${work.title}?`, set, keep);
      if (answer === undefined) throw cancelled('Stop Work');
      if (answer === set) await this.update(work, copy, { [done.column.field_id_in_data]: done.done.id });
    }
    await this.branches.forget(repository, work.branch);
    log.info(`Stop Work on record ${work.recordId} of app ${work.appId} (branch ${work.branch} kept).`);
  }
}

/** The reference leads the commit message; a message that names it already is left alone. */
function fillCommitInput(repository: GitRepository, reference: string): void {
  const value = repository.inputBox.value;
  if (value.includes(reference)) return;
  repository.inputBox.value = value.trim() === '' ? `${reference} ` : `${reference} ${value}`;
}

async function pickRepository(repositories: readonly GitRepository[]): Promise<GitRepository | undefined> {
  const picked = await prompter().quickPick(
    repositories.map((repository) => ({
      label: vscode.workspace.asRelativePath(repository.rootUri),
      detail: repository.rootUri.fsPath,
      repository,
    })),
    { title: START, placeHolder: 'Which repository?' },
  );
  return picked?.repository;
}

export function workCommands(parts: WorkParts): CommandTable {
  const work = new Work(parts);
  return {
    [WORK_COMMANDS.startWork]: (arg) => work.start(arg),
    [WORK_COMMANDS.stopWork]: () => work.stop(),
    [WORK_COMMANDS.workActions]: () => work.actions(),
    [WORK_COMMANDS.createFromCode]: (arg) => createRecordFromCode(parts, arg),
  };
}
