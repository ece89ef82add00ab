// The tools that change data: create a record, update a record's fields, comment on a record. Each works
// in two steps, the two calls VS Code makes: prepare() reads what it needs, checks every value with the
// documents' rules and returns the confirmation that shows exactly what will be sent (or, when something
// is wrong, no confirmation and the reason); send() sends that and only that, after the user confirmed.
// Nothing is sent in prepare(), and send() sends nothing it was not prepared for.
import { ALLOW_CHANGES_SETTING, ToolRefusal, type ToolHost } from './host';
import { failureText, signInPortalOf } from './answers';
import { RecordConflict, RecordGone, type RecordStore } from '../records/store';
import { changeLines, conflictSentence, givenFields, planCreate, planUpdate, quoted, type FieldChange, type UpdatePlan } from './changes';
import { appTitle, recordIdOf, targetOf, type AppInput, type RecordInput, type Target } from './reading';
import { fieldLabel } from './resolve';
import { escapeMarkdown, markdownFence } from '../shared/markdown';

export interface Confirmation {
  readonly title: string;
  /** Markdown (VS Code renders a confirmation's string so): built by confirmationMessage only. */
  readonly message: string;
}

/**
 * A confirmation's Markdown: the sentences escaped, what is sent in a fenced block, so that a value or a
 * comment such as `[Approved](https://e)` or `ok<!-- rest -->` reads as the whole text that is sent.
 */
function confirmationMessage(lead: string, sent: readonly string[], after: readonly string[] = []): string {
  return [escapeMarkdown(lead), markdownFence(sent.join('\n')), ...after.filter(Boolean).map(escapeMarkdown)].join('\n\n');
}

/** Controls that reorder the text shown around them: a comment with them would read otherwise than it is sent. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** What prepare() worked out: the confirmation to show and how to send, or why nothing will be sent. */
export type Plan =
  | {
      readonly ok: true;
      readonly invocationMessage: string;
      readonly confirmation: Confirmation;
      /** Names the portal and the app's fields in a failure's sentence. */
      readonly target: Target;
      send(signal?: AbortSignal): Promise<string>;
    }
  | {
      readonly ok: false;
      readonly invocationMessage: string;
      readonly refusal: string;
      /** The portal the user must sign in to, when that is the reason. */
      readonly signInPortal?: string;
    };

export interface CreateInput extends AppInput {
  /** An object of fields (givenFields checks it: the model may send anything). */
  readonly fields?: unknown;
  readonly draft?: boolean;
}

export interface UpdateInput extends RecordInput {
  /** An object of fields (givenFields checks it: the model may send anything). */
  readonly fields?: unknown;
}

export interface CommentInput extends RecordInput {
  readonly comment: string;
}

function refused(invocationMessage: string, error: unknown, target?: Target): Plan {
  return {
    ok: false,
    invocationMessage,
    refusal: failureText(error, { portalLabel: target?.portal.label, columns: target?.columns }),
    signInPortal: signInPortalOf(error, target?.portal.id),
  };
}

function requireChangesAllowed(host: ToolHost): void {
  if (!host.allowChanges()) {
    throw new ToolRefusal(
      `The tools that change portal data are turned off. The user can turn them on with the setting "${ALLOW_CHANGES_SETTING}"; nothing was sent.`,
    );
  }
}

/**
 * The common frame of a changing tool's prepare: the setting, `check` (input alone, before anything is
 * read), the portal, app and columns, then `build`; whatever fails becomes the plan's refusal.
 */
async function planned(
  host: ToolHost,
  input: AppInput,
  checking: string,
  signal: AbortSignal | undefined,
  build: (found: Target) => Promise<Plan> | Plan,
  check?: () => void,
): Promise<Plan> {
  let target: Target | undefined;
  try {
    requireChangesAllowed(host);
    check?.();
    target = await targetOf(host, input, signal);
    return await build(target);
  } catch (error) {
    return refused(checking, error, target);
  }
}

/**
 * An update goes through a record store (the tools' own, so that a plan never moves what an open document
 * started from): prepare reads the record anew, and that copy is the base of the save's conflict check
 * when sending.
 */
export function prepareUpdate(host: ToolHost, records: RecordStore, input: UpdateInput, signal?: AbortSignal): Promise<Plan> {
  const checking = `Checking the change to record ${String(input.record)} of ${String(input.app)}`;
  return planned(
    host,
    input,
    checking,
    signal,
    async (found) => {
      const id = recordIdOf(input);
      const { portal, app } = found;
      const record = { portalId: portal.id, appId: app.appId, recordId: id };
      records.markStale(record);
      const current = await records.read(record, 'tool prepare');
      signal?.throwIfAborted();
      const { columns } = current;
      const plan: UpdatePlan = planUpdate(columns, current.data, givenFields(input.fields), app.name);
      const recordName = `Record ${id} of ${app.name}`;
      const already =
        plan.unchanged.length > 0 ? `Already holding the value asked for (not sent): ${plan.unchanged.map(fieldLabel).join(', ')}.` : '';
      if (plan.changes.length === 0) {
        return {
          ok: false,
          invocationMessage: checking,
          refusal: `${recordName} already holds every value asked for (${plan.unchanged.map(fieldLabel).join(', ')}); nothing was sent.`,
        };
      }
      const lines = changeLines(plan.changes, false, true);
      return {
        ok: true,
        invocationMessage: `Updating record ${id} of ${app.name}`,
        target: found,
        confirmation: {
          title: `Change record ${id} of ${app.name}?`,
          message: confirmationMessage(`Portal Explorer will send these changes to record ${id} of ${appTitle(found)}:`, lines, [
            already,
            'No other field is sent.',
          ]),
        },
        send: async (sendSignal) => {
          sendSignal?.throwIfAborted();
          const edited = Object.fromEntries(plan.changes.map((change) => [change.column.field_id_in_data, change.after]));
          records.markStale(record);
          let sent: string[];
          try {
            ({ sent } = await records.update(record, edited, { checked: false, base: plan.base }));
          } catch (error) {
            if (error instanceof RecordConflict)
              throw new ToolRefusal(conflictSentence(error.server.columns, error.base, error.server.data, recordName));
            if (error instanceof RecordGone)
              throw new ToolRefusal(`${recordName} is not in the portal any more (deleted, or in its trash). Nothing was sent.`);
            throw error;
          } finally {
            records.forget(record);
          }
          // The check passed, so the portal held the confirmation's copy: every confirmed change was sent.
          return [
            `Updated record ${id} of ${appTitle(found)}; sent only these fields:`,
            ...changeLines(
              plan.changes.filter((change) => sent.includes(change.column.field_id_in_data)),
              false,
            ),
          ].join('\n');
        },
      };
    },
    () => recordIdOf(input),
  );
}

/** A create goes through the tools' record store (the documents' rules for the body; it announces the record). */
export function prepareCreate(host: ToolHost, records: RecordStore, input: CreateInput, signal?: AbortSignal): Promise<Plan> {
  return planned(host, input, `Checking the new record of ${String(input.app)}`, signal, (found) => {
    const { portal, app, columns } = found;
    const changes: FieldChange[] = planCreate(columns, givenFields(input.fields), app.name);
    const asDraft = input.draft === true;
    if (asDraft && app.draftMode === '0')
      throw new ToolRefusal(`${app.name} has no Draft mode: create the record without "draft". Nothing was sent.`);
    const kind = asDraft ? 'draft record' : 'record';
    return {
      ok: true,
      invocationMessage: `Creating a ${kind} in ${app.name}`,
      target: found,
      confirmation: {
        title: `Create a ${kind} in ${app.name}?`,
        message: confirmationMessage(
          `Portal Explorer will create a ${kind} in ${appTitle(found)} with these fields:`,
          changeLines(changes, true, true),
          ['Fields left out stay empty or take their default.'],
        ),
      },
      send: async (sendSignal) => {
        const body = Object.fromEntries(changes.map((change) => [change.column.field_id_in_data, change.after]));
        const created = await records.create({ portalId: portal.id, appId: app.appId }, body, { draft: asDraft, signal: sendSignal });
        const filled = columns
          .filter((column) => body[column.field_id_in_data] === undefined && (created.data[column.field_id_in_data] ?? '') !== '')
          .map((column) => `- ${fieldLabel(column)}: ${quoted(column, created.data[column.field_id_in_data])}`);
        const head =
          created.id !== undefined
            ? `Created record ${created.id} in ${appTitle(found)}.`
            : `Created a record in ${appTitle(found)}; the portal did not say its id.`;
        return [head, ...(filled.length > 0 ? ['Filled in by the portal:', ...filled] : [])].join('\n');
      },
    };
  });
}

/** A comment longer than this is refused: a confirmation must show all of what is sent. */
export const MAX_COMMENT_CHARS = 4000;

export function prepareComment(host: ToolHost, input: CommentInput, signal?: AbortSignal): Promise<Plan> {
  const checking = `Checking the comment on record ${String(input.record)} of ${String(input.app)}`;
  const id = String(input.record ?? '').trim();
  const comment = typeof input.comment === 'string' ? input.comment : '';
  const check = (): void => {
    recordIdOf(input);
    if (comment.trim() === '') throw new ToolRefusal('The comment is empty: give its text as "comment". Nothing was sent.');
    if (BIDI_CONTROLS.test(comment)) {
      throw new ToolRefusal(
        'The comment holds invisible characters that reorder the text around them (bidirectional controls such as U+202E), so the confirmation would read otherwise than what is sent. Remove them. Nothing was sent.',
      );
    }
    if (comment.length > MAX_COMMENT_CHARS)
      throw new ToolRefusal(
        `The comment has ${comment.length} characters; at most ${MAX_COMMENT_CHARS} are sent by this tool. Shorten it. Nothing was sent.`,
      );
  };
  return planned(
    host,
    input,
    checking,
    signal,
    (found) => {
      const { portal, app } = found;
      if (app.commentsPlugin === '0')
        throw new ToolRefusal(`Comments are not enabled for ${app.name} in the portal (its comments plugin is off). Nothing was sent.`);
      return {
        ok: true,
        invocationMessage: `Adding a comment to record ${id} of ${app.name}`,
        target: found,
        confirmation: {
          title: `Comment on record ${id} of ${app.name}?`,
          message: confirmationMessage(`Portal Explorer will add this comment to record ${id} of ${appTitle(found)}:`, [comment]),
        },
        send: async (sendSignal) => {
          await host.client(portal.id).addComment(app.appId, id, comment, sendSignal);
          return `Added the comment (${comment.length} characters) to record ${id} of ${appTitle(found)}.`;
        },
      };
    },
    check,
  );
}
