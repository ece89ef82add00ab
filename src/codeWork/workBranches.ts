// The record each branch made by Start Work is for (kept in the workspace's state, by repository and
// branch), and the status bar item that shows the record of the branch checked out: switching to such a
// branch, in any way (the Git extension, a terminal), shows its record again; another branch hides it. Built
// at activation when the workspace has such branches (src/extension.ts), so it needs nothing but Git.
import * as vscode from 'vscode';
import { WORK_COMMANDS } from '../ids';
import { Disposable } from '../lifecycle';
import type { RecordTarget } from '../model/targets';
import { escapeMarkdown } from '../shared/markdown';
import { gitApi, type GitApi, type GitRepository } from './git';
import { WORK_STATE_KEY as STATE_KEY } from './workState';

/** What a branch is for: the record, and how to show it without asking the portal. */
export interface WorkRecord extends RecordTarget {
  readonly title: string;
  /** The reference written into commits (`TCK-42`), or the record's address when its app has no pattern. */
  readonly reference: string;
  readonly branch: string;
}

function branchKey(root: vscode.Uri, branch: string): string {
  return `${root.toString()}#${branch}`;
}

function isWorkRecord(value: unknown): value is WorkRecord {
  const candidate = value as Partial<Record<keyof WorkRecord, unknown>> | undefined;
  return (['portalId', 'appId', 'recordId', 'title', 'reference', 'branch'] as const).every((key) => typeof candidate?.[key] === 'string');
}

export class WorkBranches extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('portal.work', vscode.StatusBarAlignment.Left, 90));
  private readonly changed = this._register(new vscode.EventEmitter<WorkRecord | undefined>());
  /** The record of the branch checked out changed (undefined: none). */
  readonly onDidChange = this.changed.event;
  private readonly followed = new Set<GitRepository>();
  private shown: WorkRecord | undefined;
  private shownRepository: GitRepository | undefined;
  private following: Promise<void> | undefined;

  constructor(private readonly state: vscode.Memento) {
    super();
    this.item.name = 'Portal: Record Worked On';
    this.item.command = WORK_COMMANDS.workActions;
  }

  /** Follows every repository's checked-out branch; resolves once Git has said what they are. */
  follow(api?: GitApi): Promise<void> {
    this.following ??= (async () => {
      const git = api ?? (await gitApi());
      for (const repository of git.repositories) this.followRepository(repository);
      this._register(git.onDidOpenRepository((repository) => this.followRepository(repository)));
      this._register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
      this.update();
    })().catch((error: unknown) => {
      // Git off or missing now: a later Start Work asks again (and says why it cannot).
      this.following = undefined;
      throw error;
    });
    return this.following;
  }

  /** The record worked on in the repository shown, if any. */
  current(): { work: WorkRecord; repository: GitRepository } | undefined {
    return this.shown && this.shownRepository ? { work: this.shown, repository: this.shownRepository } : undefined;
  }

  of(repository: GitRepository, branch: string | undefined): WorkRecord | undefined {
    if (branch === undefined) return undefined;
    const stored = this.all()[branchKey(repository.rootUri, branch)];
    return isWorkRecord(stored) ? stored : undefined;
  }

  async remember(repository: GitRepository, work: WorkRecord): Promise<void> {
    await this.state.update(STATE_KEY, { ...this.all(), [branchKey(repository.rootUri, work.branch)]: work });
    this.followRepository(repository);
    this.update();
  }

  /** Stop Work: the branch is no longer for the record. */
  async forget(repository: GitRepository, branch: string): Promise<void> {
    const rest = Object.fromEntries(Object.entries(this.all()).filter(([key]) => key !== branchKey(repository.rootUri, branch)));
    await this.state.update(STATE_KEY, rest);
    this.update();
  }

  /** A new title after the record changed. */
  async retitle(repository: GitRepository, work: WorkRecord, title: string): Promise<void> {
    if (title !== work.title) await this.remember(repository, { ...work, title });
  }

  private all(): Record<string, unknown> {
    const stored = this.state.get<unknown>(STATE_KEY);
    return typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  }

  private followRepository(repository: GitRepository): void {
    if (this.followed.has(repository)) return;
    this.followed.add(repository);
    this._register(repository.state.onDidChange(() => this.update()));
  }

  /** Shows the record of the checked-out branch: the active editor's repository first, then any. */
  private update(): void {
    const active = vscode.window.activeTextEditor?.document.uri;
    const repositories = [...this.followed].sort((a, b) => Number(isIn(b, active)) - Number(isIn(a, active)));
    let found: { work: WorkRecord; repository: GitRepository } | undefined;
    for (const repository of repositories) {
      const work = this.of(repository, repository.state.HEAD?.name);
      if (work) {
        found = { work, repository };
        break;
      }
    }
    const before = this.shown;
    this.shown = found?.work;
    this.shownRepository = found?.repository;
    if (!found) {
      this.item.hide();
    } else {
      this.item.text = `$(tasklist) ${found.work.reference} ${short(found.work.title)}`;
      this.item.tooltip = new vscode.MarkdownString(
        `Working on **${escapeMarkdown(found.work.title)}** (${escapeMarkdown(found.work.reference)}) on branch \`${found.work.branch}\`.\n\nClick: open it, change its status, stop work.`,
      );
      this.item.accessibilityInformation = {
        label: `Working on record ${found.work.reference}: ${found.work.title}. Open, change status or stop work.`,
      };
      this.item.show();
    }
    if (before?.branch !== found?.work.branch || before?.recordId !== found?.work.recordId || before?.title !== found?.work.title)
      this.changed.fire(found?.work);
  }
}

function isIn(repository: GitRepository, uri: vscode.Uri | undefined): boolean {
  return uri !== undefined && uri.scheme === 'file' && uri.fsPath.startsWith(repository.rootUri.fsPath);
}

function short(title: string): string {
  return title.length > 40 ? `${title.slice(0, 39)}…` : title;
}

let instance: WorkBranches | undefined;

/** The one WorkBranches of the window, owned by the extension's subscriptions. */
export function workBranches(context: vscode.ExtensionContext): WorkBranches {
  if (!instance) {
    const created = new WorkBranches(context.workspaceState);
    instance = created;
    context.subscriptions.push(created, { dispose: () => (instance = instance === created ? undefined : instance) });
  }
  return instance;
}
