// The one error boundary, for panel messages as for commands: a message that fails the protocol's schema
// shows one clear message and logs one line, and nothing else happens; a cancelled action shows nothing.
import * as assert from 'node:assert/strict';
import { PortalError } from '../../../src/api/errors';
import { SignInRequiredError } from '../../../src/model/signInRequired';
import { formToHostSchema, queryToHostSchema } from '../../../src/shared/panelMessages';
import { errorBoundary, shownInPanel, SIGN_IN_ACTION, type FailureOutlet } from '../../../src/ui/failures';
import { messageReceiver } from '../../../src/webviews/messages';

/** An outlet that records what reaches the user and the log; `answer` is the user's choice of action. */
function recordingOutlet(answer?: string) {
  const seen = {
    logged: [] as string[],
    shown: [] as Array<{ message: string; actions: string[] }>,
    signIns: [] as Array<string | undefined>,
  };
  const outlet: FailureOutlet = {
    logError: (line) => void seen.logged.push(line),
    showError: (message, ...actions) => {
      seen.shown.push({ message, actions });
      return Promise.resolve(actions.includes(answer ?? '') ? answer : undefined);
    },
    signIn: (connectionId) => (seen.signIns.push(connectionId), Promise.resolve(true)),
  };
  return { outlet, seen };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('panel messages through the error boundary', () => {
  it('refuses a malformed message with one clear message and one log line, and handles nothing', async () => {
    const malformed: unknown[] = [
      { type: 'query/run', runId: 1, filters: [{ column: '3', operator: 'sortOf' }] },
      { type: 'query/window', runId: 1, sortVersion: 0, start: -5, end: 'ten' },
      { type: 'query/export', format: 'xlsx' },
      // A bulk change naming its records some other way than `rows` must not fall back to every row.
      { type: 'query/bulk', change: 'delete', runId: 1, sortVersion: 0, recordIds: ['7'] },
      { type: 'query/bulk', change: 'delete', runId: 1, sortVersion: 0, rows: [] },
      { type: 'nonsense' },
      'query/run',
      null,
    ];
    for (const message of malformed) {
      const { outlet, seen } = recordingOutlet();
      const handled: unknown[] = [];
      await messageReceiver(
        'portal.viewQuery',
        queryToHostSchema,
        (checked) => handled.push(checked),
        errorBoundary(outlet, 'portal.signIn'),
      )(message);
      await settle();
      const what = JSON.stringify(message);
      assert.deepEqual(handled, [], `${what} is not handled`);
      assert.equal(seen.shown.length, 1, `${what}: one message`);
      assert.match(
        seen.shown[0].message,
        /^The portal\.viewQuery panel sent a message this version of Portal Explorer cannot read \(.+\)\. Close the panel and open it again\.$/,
      );
      assert.deepEqual(seen.shown[0].actions, [], 'no action offered');
      assert.equal(seen.logged.length, 1, `${what}: one log line`);
      assert.ok(seen.logged[0].startsWith('portal.viewQuery '), seen.logged[0]);
      assert.deepEqual(seen.signIns, []);
    }
  });

  it('says which field is wrong', async () => {
    const { outlet, seen } = recordingOutlet();
    await messageReceiver(
      'portal.recordForm',
      formToHostSchema,
      () => undefined,
      errorBoundary(outlet, 'portal.signIn'),
    )({ type: 'form/create', data: { f1: 3 }, draft: false });
    assert.match(seen.shown[0].message, /data\.f1: /);
  });

  it('hands a well-formed message to its handler, and reports nothing', async () => {
    const { outlet, seen } = recordingOutlet();
    const handled: unknown[] = [];
    const message = { type: 'query/run', runId: 2, filters: [{ column: '31', operator: 'contains', value: 'printer' }] };
    await messageReceiver(
      'portal.viewQuery',
      queryToHostSchema,
      (checked) => handled.push(checked),
      errorBoundary(outlet, 'portal.signIn'),
    )(message);
    assert.deepEqual(handled, [message]);
    assert.deepEqual(seen, { logged: [], shown: [], signIns: [] });
  });

  it('shows nothing for a cancelled action; one message and one log line for a failed one', async () => {
    const cancelled = recordingOutlet();
    await messageReceiver(
      'portal.viewQuery',
      queryToHostSchema,
      () => Promise.reject(new PortalError({ kind: 'cancelled', message: 'Saving the query was cancelled.' })),
      errorBoundary(cancelled.outlet, 'portal.signIn'),
    )({ type: 'query/save', filters: [] });
    assert.deepEqual(cancelled.seen, { logged: [], shown: [], signIns: [] });

    const failed = recordingOutlet();
    await messageReceiver(
      'portal.viewQuery',
      queryToHostSchema,
      () => Promise.reject(new Error('Run the query before exporting its rows.')),
      errorBoundary(failed.outlet, 'portal.signIn'),
    )({ type: 'query/export', format: 'csv' });
    await settle();
    assert.deepEqual(failed.seen.shown, [{ message: 'Run the query before exporting its rows.', actions: [] }]);
    assert.deepEqual(failed.seen.logged, ['portal.viewQuery query/export: Run the query before exporting its rows.']);
  });

  it('offers Sign In when the portal wants it, and runs the action again once signed in', async () => {
    const { outlet, seen } = recordingOutlet(SIGN_IN_ACTION);
    let runs = 0;
    const handler = (): void => {
      runs += 1;
      if (runs === 1) throw new SignInRequiredError('prod', 'Sign in to "Production" again.');
    };
    await messageReceiver('portal.viewQuery', queryToHostSchema, handler, errorBoundary(outlet, 'portal.signIn'))({ type: 'ready' });
    await settle();
    await settle();
    assert.deepEqual(seen.shown, [{ message: 'Sign in to "Production" again.', actions: [SIGN_IN_ACTION] }]);
    assert.deepEqual(seen.signIns, ['prod']);
    assert.equal(runs, 2, 'ran again after signing in');
    assert.equal(seen.logged.length, 1);
  });

  it("shows a failure inside the panel by the same rule: one log line, describeError's words, nothing when cancelled", async () => {
    const logged: string[] = [];
    const shown: Array<{ message: string; field?: string }> = [];
    const run = shownInPanel((line) => logged.push(line));
    const show = (message: string, error: unknown): void => {
      shown.push({ message, ...(error instanceof PortalError && error.field ? { field: error.field } : {}) });
    };

    assert.equal(await run('portal.recordForm form/create', () => 'created', show), 'created');
    const refused = new PortalError({
      kind: 'http',
      status: 400,
      field: 'f2',
      message: 'Creating a record failed: Bad Request (HTTP 400).',
      portalMessage: 'f2 is required.',
    });
    assert.equal(await run('portal.recordForm form/create', () => Promise.reject(refused), show), undefined);
    assert.deepEqual(shown, [{ message: 'Creating a record failed: Bad Request (HTTP 400). (f2 is required.)', field: 'f2' }]);
    assert.deepEqual(logged, ['portal.recordForm form/create: Creating a record failed: Bad Request (HTTP 400). (f2 is required.)']);

    shown.length = logged.length = 0;
    await run(
      'portal.viewQuery query/run',
      () => Promise.reject(new PortalError({ kind: 'cancelled', message: 'Reading the view was cancelled.' })),
      show,
    );
    const aborted = new AbortController();
    aborted.abort();
    await run('portal.viewQuery query/run', () => Promise.reject(new Error('socket hang up')), show, { signal: aborted.signal });
    assert.deepEqual({ shown, logged }, { shown: [], logged: [] }, 'a cancelled or aborted action shows and logs nothing');

    await run('portal.viewQuery query/run', () => Promise.reject(new Error('')), show, { fallback: 'Reading the view failed.' });
    assert.deepEqual(shown, [{ message: 'Reading the view failed.' }]);
    assert.equal(logged.length, 1);
  });
});
