// The walkthrough as package.json contributes it: every step has its page, a button that runs one of the
// extension's commands, and an event that completes it; the Portal view's welcome offers it.
import * as assert from 'node:assert/strict';
import { manifest, readRepoFile } from '../support/manifest';

describe('the walkthrough "Get started with Portal Explorer"', () => {
  const contributes = manifest().contributes;
  const commands = new Set(contributes.commands.map((command) => command.command));
  const walkthrough = contributes.walkthroughs?.find((candidate) => candidate.id === 'getStarted');

  it('has six steps, from registering the application to a webhook', () => {
    assert.ok(walkthrough);
    assert.deepEqual(
      walkthrough.steps.map((step) => step.id),
      ['register', 'addPortal', 'signIn', 'openRecord', 'queryView', 'webhooks'],
    );
  });

  it('gives each step a page, a button running a command of the extension and a completion event', () => {
    for (const step of walkthrough?.steps ?? []) {
      const page = readRepoFile(`media/walkthrough/${step.id}.md`);
      assert.match(page, /^# /, `media/walkthrough/${step.id}.md has a title`);
      const buttons = [...step.description.matchAll(/\n\[[^\]]+\]\(command:([\w.]+)\)/g)].map((match) => match[1]);
      assert.equal(buttons.length, 1, `${step.id} has one button on a line of its own`);
      assert.ok(commands.has(buttons[0]), `${step.id}'s button runs ${buttons[0]}, a contributed command`);
      assert.ok((step.completionEvents?.length ?? 0) > 0, `${step.id} completes on an event`);
      for (const event of step.completionEvents ?? []) assert.match(event, /^(onCommand:portal\.|onContext:portal\.)/);
    }
  });

  it('tells which call-back URL to register, and where in the portal', () => {
    const page = readRepoFile('media/walkthrough/register.md');
    assert.match(page, /System Admin > Portal Settings > Web API Setting/);
    assert.match(page, /Register New Application/);
    assert.match(page, /vscode:\/\/portal-labs\.portal-explorer\/auth/);
    assert.match(page, /http:\/\/127\.0\.0\.1\/callback/);
  });

  it('is offered by the welcome of the Portal view', () => {
    const welcome = contributes.viewsWelcome?.find((entry) => entry.view === 'portal.explorer' && entry.when === undefined);
    assert.match(welcome?.contents ?? '', /\[Add Portal\]\(command:portal\.addPortal\)/);
    assert.match(welcome?.contents ?? '', /\[Try the Walkthrough\]\(command:portal\.openWalkthrough\)/);
  });
});
