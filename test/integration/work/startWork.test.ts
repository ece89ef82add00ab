// Start Work on Record in a real workbench with a real git repository: the branch is created and checked out
// through VS Code's Git extension, the commit message box holds the record's reference, the team's status
// and the user are set on the record in the portal (the emulator), and Stop Work sets the "done" value.
// Git is off in the test profile (fewer processes on a small machine): these tests turn it on and off again.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { useConnectedPortal } from '../documents/support';
import { driver } from '../support/driver';
import { emulator, emulatorControl } from '../support/emulator';
import { testApi } from '../support/extension';
import { useScriptedPrompter } from '../support/prompter';
import { waitFor } from '../support/wait';
import { teamFile, workspaceFile, workspaceRoot } from '../support/workspace';

interface TestRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  readonly state: { readonly HEAD: { readonly name?: string } | undefined };
}
interface TestGitApi {
  readonly repositories: readonly TestRepository[];
  openRepository(root: vscode.Uri): Promise<TestRepository | null>;
}
interface EmulatorRecord {
  data: Record<string, string>;
}

const TICKETS = '201';
const FILE = '.vscode/portal.json';
const IN_PROGRESS = '2';
const CLOSED = '4';

function git(folder: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd: folder,
    encoding: 'utf8',
  }).trim();
}

async function gitApi(): Promise<TestGitApi> {
  const extension = vscode.extensions.getExtension<{ enabled: boolean; getAPI(version: 1): TestGitApi }>('vscode.git');
  assert.ok(extension, "VS Code's Git extension is there");
  const exports = extension.isActive ? extension.exports : await extension.activate();
  await waitFor(() => exports.enabled, { message: 'Git to be turned on' });
  return exports.getAPI(1);
}

describe('Start Work on Record (a real git repository)', function () {
  this.timeout(90_000);
  const portalId = useConnectedPortal();
  const user = useScriptedPrompter();
  const repoUri = () => vscode.Uri.joinPath(workspaceRoot(), 'work-repo');
  let repository: TestRepository;

  before(async () => {
    const folder = repoUri().fsPath;
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    git(folder, 'init', '-q', '-b', 'main');
    git(folder, 'commit', '-q', '--allow-empty', '-m', 'Start');
    await vscode.workspace.getConfiguration().update('git.enabled', true, vscode.ConfigurationTarget.Global);
  });

  beforeEach(async () => {
    await vscode.workspace
      .getConfiguration()
      .update('portal.me.email', { [emulator().base_url]: 'ana@example.com' }, vscode.ConfigurationTarget.Global);
    await workspaceFile(
      FILE,
      teamFile({
        apps: [
          {
            id: TICKETS,
            reference: 'TCK-{id}',
            startWork: { statusField: 'State', startStatus: 'In progress', doneStatus: 'Closed', userField: 'Assignee' },
          },
        ],
      }),
    );
    const api = await testApi();
    await waitFor(() => api.workspace.app(portalId(), TICKETS)?.startWork, {
      message: "the workspace file's Start Work convention to be read",
    });
    const opened = await (await gitApi()).openRepository(repoUri());
    assert.ok(opened, 'Git opens the test repository');
    repository = opened;
    git(repoUri().fsPath, 'checkout', '-q', 'main');
    repository.inputBox.value = '';
  });

  after(async () => {
    await vscode.workspace.getConfiguration().update('git.enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration().update('portal.me.email', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), FILE)).then(
      () => undefined,
      () => undefined,
    );
  });

  it('sets nothing over a change another user made while it read the record, and says so', async () => {
    const recordId = '2';
    const path = `/api/v1/app/${TICKETS}/record/${recordId}`;
    const before = await emulatorControl<EmulatorRecord>('GET', `records/${TICKETS}/${recordId}`);
    // Start Work's read is answered late, with the record as it was when asked; meanwhile another user changes it.
    await emulatorControl('POST', 'faults', { method: 'GET', path: `^${path}$`, answer_delay_ms: 1_000 });
    const started = vscode.commands.executeCommand('portal.startWork', { portalId: portalId(), appId: TICKETS, recordId });
    await waitFor(async () => (await emulatorControl<unknown[]>('GET', 'faults')).length === 0, { message: 'the read to be taken' });
    // Another user: the portal's own client, past the extension's stores and their events.
    await (await testApi()).portals.client(portalId()).updateRecord(TICKETS, recordId, { f31: 'Changed by someone else' });
    await started;

    const after = await emulatorControl<EmulatorRecord>('GET', `records/${TICKETS}/${recordId}`);
    assert.equal(after.data.f31, 'Changed by someone else', "the other user's change stays");
    assert.equal(after.data.f35, before.data.f35, 'the State was not set');
    assert.equal(after.data.f40 ?? '', before.data.f40 ?? '', 'the Assignee was not changed either');
    assert.ok(
      user().messages.some((message) => message.level === 'warn' && /changed in the portal while Start Work read it/.test(message.message)),
      JSON.stringify(user().messages),
    );
    await vscode.commands.executeCommand('portal.stopWork').then(
      () => undefined,
      () => undefined,
    );
  });

  it('creates the branch, fills the commit message, and sets the status and the user in the portal', async () => {
    // A seed ticket not in progress yet.
    let recordId = '';
    let before: EmulatorRecord | undefined;
    for (const candidate of ['1', '2', '3', '4', '5', '6']) {
      before = await emulatorControl<EmulatorRecord>('GET', `records/${TICKETS}/${candidate}`);
      if (before.data.f35 !== IN_PROGRESS && !(before.data.f40 ?? '').includes('ana@example.com')) {
        recordId = candidate;
        break;
      }
    }
    assert.ok(before && recordId, 'a seed ticket is not in progress');
    const work = await vscode.commands.executeCommand<{ branch: string; reference: string }>('portal.startWork', {
      portalId: portalId(),
      appId: TICKETS,
      recordId,
    });
    const subject = before.data.f31;
    assert.match(work.branch, new RegExp(`^${recordId}-[\\p{L}\\p{N}-]+$`, 'u'), work.branch);
    assert.equal(git(repoUri().fsPath, 'rev-parse', '--abbrev-ref', 'HEAD'), work.branch, 'the branch is checked out');
    assert.ok(
      work.branch.startsWith(`${recordId}-${subject.toLowerCase().split(/[^\p{L}\p{N}]+/u)[0]}`),
      `${work.branch} is named after "${subject}"`,
    );
    await waitFor(() => repository.state.HEAD?.name === work.branch, { message: 'Git to see the new branch' });
    assert.equal(work.reference, `TCK-${recordId}`, "the app's reference pattern of the workspace file");
    assert.ok(
      repository.inputBox.value.startsWith(work.reference),
      `the commit message "${repository.inputBox.value}" starts with ${work.reference}`,
    );
    const after = await emulatorControl<EmulatorRecord>('GET', `records/${TICKETS}/${recordId}`);
    assert.equal(after.data.f35, IN_PROGRESS, 'State is In progress');
    assert.ok(after.data.f40.split(',').includes('ana@example.com'), `Assignee holds me: ${after.data.f40}`);
    assert.equal(after.data.f31, subject, 'nothing else changed');

    // The status bar shows the record worked on.
    const statusBar = async (): Promise<string> => (await driver.texts('.statusbar-item')).join(' | ');
    await waitFor(async () => (await statusBar()).includes(work.reference), { message: `the status bar to show ${work.reference}` });
    await driver.screenshot('start-work-status-bar');

    user().answerMessage('Set State to Closed', /Stop work on/);
    await vscode.commands.executeCommand('portal.stopWork');
    assert.equal(
      (await emulatorControl<EmulatorRecord>('GET', `records/${TICKETS}/${recordId}`)).data.f35,
      CLOSED,
      'Stop Work set State to Closed',
    );
  });
});
