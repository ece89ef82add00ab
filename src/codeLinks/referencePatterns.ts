// The reference patterns this window uses (issue 33), for links, hovers, completion and Start Work: read
// from the workspace file and the `portal.references` setting (references/sources.ts), again whenever
// either changes or a portal is connected. One source per window, started with the features; before that
// (and in a window without them) there are none.
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import type { SharedSetup } from '../catalog/workspaceSetup';
import { Disposable } from '../lifecycle';
import { createLogger } from '../log';
import type { ReferencePattern } from '../references/patterns';
import { readPatterns } from '../references/sources';
import { onDidChangeSettings, setting } from '../settings/settings';

const log = createLogger('references');
const changed = new vscode.EventEmitter<void>();
let current: readonly ReferencePattern[] = [];

/** Every app's reference pattern, of every connected portal; the same array until they change. */
export function referencePatterns(): ReferencePattern[] {
  return current as ReferencePattern[];
}

/** Fires when referencePatterns() has changed. */
export const onDidChangeReferencePatterns: vscode.Event<void> = changed.event;

/** Keeps referencePatterns() up to date from `workspace`, the setting and the connections. */
export class ReferencePatternSource extends Disposable {
  private lastProblems = '';

  constructor(
    private readonly workspace: SharedSetup,
    private readonly portals: Portals,
  ) {
    super();
    this._registerAll(
      workspace.onDidChange(() => this.read()),
      portals.onDidChange(() => this.read()),
      onDidChangeSettings(['references'], () => this.read()),
      { dispose: () => this.set([]) },
    );
    this.read();
  }

  private read(): void {
    const read = readPatterns(this.workspace.apps(), setting('references'), this.portals.list());
    const problems = read.problems.join('\n');
    // Once per new set of problems, not on every sign-in.
    if (problems !== '' && problems !== this.lastProblems) for (const problem of read.problems) log.warn(problem);
    this.lastProblems = problems;
    this.set(read.patterns);
  }

  private set(patterns: ReferencePattern[]): void {
    if (JSON.stringify(patterns) === JSON.stringify(current)) return;
    current = patterns;
    changed.fire();
  }
}
