// The webhook commands: start and stop the receiver, each portal's Secret Key and Payload URL, and the
// Webhook Events view's own (clear, open a payload).
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import type { Stores } from '../catalog/stores';
import { WEBHOOK_COMMANDS } from '../ids';
import { prompter, tell } from '../ui/prompter';
import type { WebhookEvent } from '../webhooks/eventLog';
import { payloadUri } from '../webhooks/payloadDocuments';
import type { WebhookSecrets } from '../webhooks/secrets';
import type { ReceiverState, WebhookService } from '../webhooks/service';
import { pickPortal } from './pickers';
import { connectionIdArg } from './portalArgs';
import type { CommandTable } from './register';

export type WebhookCommandParts = Pick<Stores, 'portals'> & {
  readonly service: WebhookService;
  readonly secrets: WebhookSecrets;
};

const COPY = 'Copy Payload URL';
const SET_SECRET = 'Set Secret Key';
const WHERE = "the portal's App Settings > Advanced Settings > Webhook Settings";

/** The connection the argument names, or the one the user picks (asked only when there are several). */
async function portalOf(portals: Portals, arg: unknown, title: string): Promise<string | undefined> {
  const named = connectionIdArg(arg);
  if (named !== undefined) {
    if (!portals.get(named)) throw new Error(`No portal is connected as "${named}".`);
    return named;
  }
  return (await pickPortal(portals, { title }))?.portalId;
}

function labelOf(portals: Portals, id: string): string {
  return portals.get(id)?.label ?? id;
}

async function copyUrl(parts: WebhookCommandParts, connectionId: string): Promise<string> {
  if (parts.service.state().kind !== 'running') await parts.service.start();
  const url = parts.service.payloadUrl(connectionId);
  if (!url) throw new Error('The webhook receiver is not running.');
  await prompter().copyToClipboard(url);
  return url;
}

/** The message after starting: the Payload URL to paste, Copy, and Set Secret Key when there is none. */
async function announce(parts: WebhookCommandParts, started: boolean): Promise<void> {
  const { portals, service, secrets } = parts;
  const connections = portals.list();
  const state = service.state();
  if (state.kind !== 'running') return;
  const opening = started ? 'The webhook receiver is listening.' : 'The webhook receiver is already listening.';
  if (connections.length !== 1) {
    // Not awaited: the command ends now; the offer stays up until the user answers.
    void prompter()
      .info(
        `${opening} Each portal has its own Payload URL (…/portal/<connection id>) on port ${state.port}: copy it into ${WHERE}.`,
        `${COPY}…`,
      )
      .then(async (choice) => (choice ? vscode.commands.executeCommand(WEBHOOK_COMMANDS.copyUrl) : undefined))
      .then(undefined, () => undefined);
    return;
  }
  const [connection] = connections;
  const url = service.payloadUrl(connection.id) ?? '';
  const hasSecret = (await secrets.get(connection.id)) !== undefined;
  const unsigned = !hasSecret && (await secrets.acceptsUnsigned(connection.id));
  const secretNote = hasSecret
    ? ' Deliveries must be signed with its Secret Key.'
    : unsigned
      ? ' No Secret Key is set, and you accept unsigned deliveries for this portal: any program on this machine can send it events.'
      : ' No Secret Key is set: unsigned deliveries are refused until you set one.';
  const actions = hasSecret ? [COPY] : [COPY, SET_SECRET];
  // Not awaited: the command ends now; the offer stays up until the user answers.
  void prompter()
    .info(`${opening} Payload URL for "${connection.label}": ${url} — paste it into ${WHERE}.${secretNote}`, ...actions)
    .then(async (choice) => {
      if (choice === COPY) await vscode.commands.executeCommand(WEBHOOK_COMMANDS.copyUrl, connection.id);
      if (choice === SET_SECRET) await vscode.commands.executeCommand(WEBHOOK_COMMANDS.setSecret, connection.id);
    })
    .then(undefined, () => undefined);
}

async function setSecret(parts: WebhookCommandParts, arg: unknown): Promise<boolean | undefined> {
  const id = await portalOf(parts.portals, arg, 'Set Webhook Secret Key');
  if (id === undefined) return undefined;
  const label = labelOf(parts.portals, id);
  const had = (await parts.secrets.get(id)) !== undefined;
  const unsigned = !had && (await parts.secrets.acceptsUnsigned(id));
  const value = await prompter().inputBox({
    title: `Webhook Secret Key for "${label}"`,
    prompt: `The Secret Key entered for the webhook in ${WHERE}.${had ? ' Leave empty to remove the one set.' : unsigned ? ' Leave empty to stop accepting unsigned deliveries.' : ''}`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) =>
      text !== text.trim() ? 'The Secret Key has spaces at its start or end: copy it again without them.' : undefined,
  });
  if (value === undefined) return undefined;
  if (value === '') {
    if (unsigned) {
      await parts.service.acceptUnsigned(id, false);
      tell('info', `Unsigned webhook deliveries for "${label}" are refused again.`);
      return false;
    }
    if (!had) return undefined;
    await parts.secrets.delete(id);
    tell('info', `The webhook Secret Key for "${label}" is removed: its unsigned deliveries are refused unless you accept them.`);
    return false;
  }
  await parts.secrets.set(id, value);
  // The receiver's status stops warning of this portal's unsigned deliveries.
  await parts.service.acceptUnsigned(id, false);
  tell('info', `The webhook Secret Key for "${label}" is saved: deliveries without its valid signature are refused.`);
  return true;
}

/** The event a tree node, an event or a sequence number names; else the user picks one. */
async function eventOf(parts: WebhookCommandParts, arg: unknown): Promise<WebhookEvent | undefined> {
  const log = parts.service.events;
  if (typeof arg === 'number') return log.get(arg);
  if (typeof arg === 'object' && arg !== null) {
    const { event, seq } = arg as { event?: unknown; seq?: unknown };
    if (typeof seq === 'number') return log.get(seq);
    if (typeof event === 'object' && event !== null && typeof (event as { seq?: unknown }).seq === 'number')
      return log.get((event as { seq: number }).seq);
  }
  const withBody = log.list().filter((entry) => entry.body !== undefined);
  if (withBody.length === 0) throw new Error('No webhook event with a payload has been received yet.');
  const picked = await prompter().quickPick(
    withBody.map((entry) => ({
      label: entry.event ?? '(no event name)',
      description: [
        entry.appId && `app ${entry.appId}`,
        entry.recordId && `record ${entry.recordId}`,
        entry.receivedAt.toLocaleTimeString(),
      ]
        .filter(Boolean)
        .join(' · '),
      seq: entry.seq,
    })),
    { title: 'Open Webhook Payload', placeHolder: 'Which event?' },
  );
  return picked ? log.get(picked.seq) : undefined;
}

async function openPayload(parts: WebhookCommandParts, arg: unknown): Promise<vscode.Uri | undefined> {
  const event = await eventOf(parts, arg);
  if (!event) return undefined;
  if (!event.body) throw new Error(`That delivery was refused (${event.status}): its body was not kept.`);
  const uri = payloadUri(event);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: true });
  return uri;
}

export function webhookCommands(parts: WebhookCommandParts): CommandTable {
  const { portals, service } = parts;
  return {
    [WEBHOOK_COMMANDS.start]: async (): Promise<ReceiverState> => {
      if (portals.list().length === 0)
        throw new Error('No portal is connected yet: add one with "Portal: Add Portal" first, then start the webhook receiver.');
      const started = await service.start();
      await announce(parts, started);
      return service.state();
    },
    [WEBHOOK_COMMANDS.stop]: async (): Promise<boolean> => {
      const stopped = await service.stop();
      // Not awaited: the command ends now; the offer stays up until the user answers.
      void prompter().info(
        stopped
          ? 'The webhook receiver stopped: the portal’s deliveries fail until it starts again.'
          : 'The webhook receiver is not running.',
      );
      return stopped;
    },
    [WEBHOOK_COMMANDS.setSecret]: (arg) => setSecret(parts, arg),
    [WEBHOOK_COMMANDS.copyUrl]: async (arg) => {
      const id = await portalOf(portals, arg, 'Copy Webhook Payload URL');
      if (id === undefined) return undefined;
      const url = await copyUrl(parts, id);
      tell('info', `Copied the Payload URL for "${labelOf(portals, id)}": ${url}`);
      return url;
    },
    [WEBHOOK_COMMANDS.clear]: () => service.events.clear(),
    [WEBHOOK_COMMANDS.openPayload]: (arg) => openPayload(parts, arg),
  };
}
