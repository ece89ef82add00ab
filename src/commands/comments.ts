// Comments on records: "Add Comment…" opens the record's comment draft (src/comments/commentDrafts.ts),
// "Send Comment" posts it. A comment the portal refuses is never lost: it stays in its editor and the
// message offers to copy it. An app whose comments plugin is off (as the portal says, when it says) is
// refused before anything is written; when the portal does not say, its refusal (403) says it.
import * as vscode from 'vscode';
import { isCancellation, isPortalError } from '../api/errors';
import { isSignInRequired } from '../model/signInRequired';
import type { RecordTarget } from '../model/targets';
import { appInfoOf, appNameOf } from '../catalog/appNames';
import { commentTargetOf, type CommentDrafts } from '../comments/commentDrafts';
import { COMMENT_COMMANDS, COMMENT_SCHEME } from '../ids';
import { createLogger } from '../log';
import { describeError } from '../ui/errorBoundary';
import { prompter, tell } from '../ui/prompter';
import { recordForAction } from './actionTargets';
import type { RecordPickerParts } from './pickers';
import type { CommandTable } from './register';

export const COMMENTS_DISABLED = 'Comments are not enabled for this app in the portal';
export const COPY_COMMENT = 'Copy Comment';

export type CommentCommandParts = RecordPickerParts & { readonly drafts: CommentDrafts };

const log = createLogger('comments');

/** The portal's "no" to comments on the app: the emulator's code, or any 403 of the comment endpoint. */
export function isCommentsDisabled(error: unknown): boolean {
  return isPortalError(error) && (error.code === 'comments_disabled' || (error.status === 403 && error.code !== 'unauthorized'));
}

async function addComment(parts: CommentCommandParts, arg: unknown): Promise<string> {
  const target = await recordForAction(parts, arg, 'Add Comment');
  const app = await appInfoOf(parts.catalog, target);
  if (app?.commentsPlugin === false) {
    throw new Error(`${COMMENTS_DISABLED} (${app.name}). A portal administrator can turn on its comments plugin.`);
  }
  return (await parts.drafts.open(target, appNameOf(app, target))).toString();
}

function draftOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg.scheme === COMMENT_SCHEME ? arg : undefined;
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === COMMENT_SCHEME ? active : undefined;
}

/** Resolves true when the portal took the comment. `sending`: the drafts on their way (a second Ctrl+Enter sends nothing). */
async function sendComment(parts: CommentCommandParts, arg: unknown, sending: Set<string>): Promise<boolean> {
  const uri = draftOf(arg);
  const target = uri && commentTargetOf(uri);
  if (!uri || !target) throw new Error('Open a comment to send it: "Portal: Add Comment…" on a record.');
  const key = uri.toString();
  if (sending.has(key)) {
    tell('info', `The comment on record ${target.recordId} is being sent already.`);
    return false;
  }
  sending.add(key);
  try {
    return await sendDraft(parts, uri, target);
  } finally {
    sending.delete(key);
  }
}

async function sendDraft(parts: CommentCommandParts, uri: vscode.Uri, target: RecordTarget): Promise<boolean> {
  const text = parts.drafts.text(uri) ?? '';
  if (text.trim() === '') throw new Error(`Write the comment on record ${target.recordId} first: it is empty.`);
  const appName = appNameOf(await appInfoOf(parts.catalog, target), target);
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Sending the comment on record ${target.recordId}` },
      () => parts.portals.client(target.portalId).addComment(target.appId, target.recordId, text),
    );
  } catch (error) {
    // Cancelled: silent; sign-in: the command wrapper offers "Sign In" and sends again. Either way the
    // text stays in its editor.
    if (isCancellation(error) || isSignInRequired(error)) throw error;
    const reason = isCommentsDisabled(error) ? `${COMMENTS_DISABLED} (${appName}).` : describeError(error);
    // The portal's own words go to the log; never the comment.
    log.error(`${COMMENT_COMMANDS.send}: ${describeError(error)}`);
    // Not awaited: the command ends now; the offer stays up until the user answers.
    void prompter()
      .error(`${reason} Your comment on record ${target.recordId} is kept in its editor.`, COPY_COMMENT)
      .then(async (choice) => {
        if (choice !== COPY_COMMENT) return;
        await prompter().copyToClipboard(text);
        tell('info', 'The comment is on the clipboard.');
      });
    return false;
  }
  if (parts.drafts.text(uri) !== text) {
    // Typed on while it was being sent: the sent part leaves the editor (sending again would post it
    // twice); what was typed after it stays.
    const kept = await dropSentPart(uri, text);
    tell(
      'info',
      kept
        ? `Comment added to record ${target.recordId} of ${appName}. Its editor keeps what you typed while it was being sent.`
        : `Comment added to record ${target.recordId} of ${appName}. Its editor stays open: it changed while the comment was being sent.`,
    );
    return true;
  }
  await parts.drafts.discard(uri);
  tell('info', `Comment added to record ${target.recordId} of ${appName}.`);
  return true;
}

/** Removes the sent text (and the blank space after it) from the start of the draft; false when the draft no longer starts with it. */
async function dropSentPart(uri: vscode.Uri, sent: string): Promise<boolean> {
  const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
  const now = document?.getText();
  if (!document || now === undefined || !now.startsWith(sent)) return false;
  const end = sent.length + (/^\s*/.exec(now.slice(sent.length))?.[0].length ?? 0);
  const edit = new vscode.WorkspaceEdit();
  edit.delete(uri, new vscode.Range(document.positionAt(0), document.positionAt(end)));
  return vscode.workspace.applyEdit(edit);
}

export function commentCommands(parts: CommentCommandParts): CommandTable {
  const sending = new Set<string>();
  return {
    [COMMENT_COMMANDS.add]: (arg) => addComment(parts, arg),
    [COMMENT_COMMANDS.send]: (arg) => sendComment(parts, arg, sending),
  };
}
