// The parts of VS Code's built-in Git extension (`vscode.git`, API version 1) that Start Work uses, typed
// here: the extension publishes no types package, and its API is stable at version 1. Only what is used is
// declared, so nothing of the extension's reaches this one untyped.
import * as vscode from 'vscode';

export interface GitBranch {
  readonly name?: string;
  readonly commit?: string;
}

export interface GitRepositoryState {
  readonly HEAD: GitBranch | undefined;
  readonly onDidChange: vscode.Event<void>;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  readonly state: GitRepositoryState;
  createBranch(name: string, checkout: boolean, ref?: string): Promise<void>;
  checkout(treeish: string): Promise<void>;
  getBranch(name: string): Promise<GitBranch>;
}

export interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  getRepository(uri: vscode.Uri): GitRepository | null;
  openRepository(root: vscode.Uri): Promise<GitRepository | null>;
}

interface GitExtension {
  readonly enabled: boolean;
  readonly onDidChangeEnablement: vscode.Event<boolean>;
  getAPI(version: 1): GitApi;
}

const GIT_EXTENSION_ID = 'vscode.git';

function isGitExtension(value: unknown): value is GitExtension {
  const candidate = value as Partial<Record<keyof GitExtension, unknown>> | undefined;
  return typeof candidate?.getAPI === 'function' && typeof candidate.enabled === 'boolean';
}

/** Git is missing or turned off: what to do about it. */
export class GitUnavailable extends Error {
  override readonly name = 'Error';
}

/** The Git extension's API once it is active and enabled; else throws GitUnavailable saying why. */
export async function gitApi(): Promise<GitApi> {
  const extension = vscode.extensions.getExtension<unknown>(GIT_EXTENSION_ID);
  if (!extension) throw new GitUnavailable("Start Work needs VS Code's built-in Git extension, which is not installed or is disabled.");
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!isGitExtension(exports)) throw new GitUnavailable("VS Code's Git extension did not offer its API.");
  if (!exports.enabled)
    throw new GitUnavailable('Git is turned off in VS Code (the "git.enabled" setting): turn it on to start work on a branch.');
  const api = exports.getAPI(1);
  if (api.state === 'uninitialized')
    await new Promise<void>((resolve) => {
      const listener = api.onDidChangeState((state) => {
        if (state !== 'initialized') return;
        listener.dispose();
        resolve();
      });
    });
  return api;
}

/** The Git API when it is there and on, without waiting for it or saying why not (to follow branch changes). */
export function gitApiIfActive(): GitApi | undefined {
  const extension = vscode.extensions.getExtension<unknown>(GIT_EXTENSION_ID);
  const exports = extension?.isActive ? extension.exports : undefined;
  return isGitExtension(exports) && exports.enabled ? exports.getAPI(1) : undefined;
}

/**
 * The repository to start work in: the one of the active editor's file, else the only one open, else one
 * picked; the workspace folder's repository is opened when Git has not found it yet.
 */
export async function repositoryForWork(
  api: GitApi,
  pick: (repositories: readonly GitRepository[]) => Promise<GitRepository | undefined>,
): Promise<GitRepository | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const ofEditor = active?.scheme === 'file' ? api.getRepository(active) : null;
  if (ofEditor) return ofEditor;
  if (api.repositories.length === 1) return api.repositories[0];
  if (api.repositories.length > 1) return pick(api.repositories);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const opened = await api.openRepository(folder.uri);
    if (opened) return opened;
  }
  throw new GitUnavailable('No git repository is open in this window: open a folder that is one (or run "Git: Initialize Repository").');
}
