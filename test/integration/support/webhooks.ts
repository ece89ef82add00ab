// The webhook receiver as the tests drive it: started through its command on a free port, the emulator's
// webhook pointed at the Payload URL it shows, the Secret Key set through its command (the input box
// answered by the test's ScriptedPrompter), and deliveries sent by hand, as a stranger on the machine
// could, with node's own HTTP client.
import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import * as vscode from 'vscode';
import type { WebhookEvent } from '../../../src/webhooks/eventLog';
import { emulatorControl } from './emulator';
import { testApi } from './extension';
import type { ScriptedPrompter } from './prompter';
import { waitFor } from './wait';

export const WEBHOOK_SECRET = 'whsec-integration-51ab9e';

/** A setting of portal.webhooks in the user settings (undefined removes it), awaited until VS Code reads it back. */
export async function setWebhookSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('portal.webhooks').update(key, value, vscode.ConfigurationTarget.Global);
  await waitFor(
    () => JSON.stringify(vscode.workspace.getConfiguration('portal.webhooks').inspect(key)?.globalValue) === JSON.stringify(value),
    {
      message: `portal.webhooks.${key} to read ${JSON.stringify(value)}`,
    },
  );
}

/** Runs "Portal: Start Webhook Receiver" and resolves with the Payload URL of `portalId`. */
export async function startReceiver(portalId: string): Promise<string> {
  const state = await vscode.commands.executeCommand<{ kind: string } | undefined>('portal.startWebhookReceiver');
  assert.equal(state?.kind, 'running', 'the receiver runs after Start');
  const url = (await testApi()).webhooks.payloadUrl(portalId);
  assert.ok(url, 'a Payload URL while running');
  return url;
}

export async function stopReceiver(): Promise<void> {
  await vscode.commands.executeCommand('portal.stopWebhookReceiver');
}

/**
 * For a suite: the receiver on any free port (portal.webhooks.port 0, set back afterwards, with the other
 * settings named), stopped after each test.
 */
export function useFreePortReceiver(...otherSettings: string[]): void {
  before(() => setWebhookSetting('port', 0));
  afterEach(stopReceiver);
  after(async () => {
    for (const key of ['port', ...otherSettings]) await setWebhookSetting(key, undefined);
  });
}

/** Where the service keeps a portal's "Accept Unsigned" choice (src/auth/secretKeys.ts). */
export const unsignedKey = (portalId: string): string => `portal.webhookUnsigned.${portalId}`;

/**
 * The user's choice that a portal without a Secret Key takes unsigned deliveries (off by default), as the
 * "Accept Unsigned" answer to the receiver's warning stores it; false takes it back.
 */
export async function acceptUnsigned(portalId: string, accept = true): Promise<void> {
  const api = await testApi();
  if (accept) await api.context.secrets.store(unsignedKey(portalId), 'true');
  else await api.context.secrets.delete(unsignedKey(portalId));
}

/** "Portal: Set Webhook Secret Key…" for the portal, the user typing `secret` ('' removes it). */
export async function setSecretThroughCommand(user: ScriptedPrompter, portalId: string, secret: string): Promise<void> {
  user.answerInputBox(secret, /Secret Key/);
  await vscode.commands.executeCommand('portal.setWebhookSecret', portalId);
}

/** Registers a webhook of the emulator for `appId`, delivering to `payloadUrl`. */
export async function registerEmulatorWebhook(
  payloadUrl: string,
  options: { appId?: string; secret?: string; events?: string[] } = {},
): Promise<string> {
  const { id } = await emulatorControl<{ id: string }>('POST', 'webhooks', {
    app_id: options.appId ?? '101',
    payload_url: payloadUrl,
    secret: options.secret,
    events: options.events,
  });
  return id;
}

export interface EmulatorDelivery {
  delivery_id: string;
  event: string;
  record_id: string;
  state: 'pending' | 'delivered' | 'failed';
  status: number | null;
}

/** Waits until the emulator has finished `count` deliveries (delivered or failed), and returns them all. */
export async function finishedDeliveries(count: number): Promise<EmulatorDelivery[]> {
  return waitFor(
    async () => {
      const all = await emulatorControl<EmulatorDelivery[]>('GET', 'deliveries');
      const done = all.filter((delivery) => delivery.state !== 'pending');
      return done.length >= count ? done : undefined;
    },
    { message: `${count} finished deliveries of the emulator` },
  );
}

/** The events the extension logged, newest first. */
export async function webhookEvents(): Promise<readonly WebhookEvent[]> {
  return (await testApi()).webhooks.events.list();
}

/** Waits for an event in the log that passes `test`. */
export async function waitForWebhookEvent(test: (event: WebhookEvent) => boolean, message: string): Promise<WebhookEvent> {
  return waitFor(async () => (await webhookEvents()).find(test), { message: `the webhook event: ${message}` });
}

export function sign(body: string | Buffer, secret = WEBHOOK_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** POSTs `body` to the receiver as a portal would (or would not), resolving with the status and body. */
export async function deliver(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: response.status, text: await response.text() };
}

/** A payload as the emulator sends it. */
export function payload(event: string, recordId: string, data: Record<string, string> = {}): string {
  return JSON.stringify({
    event,
    app_id: '101',
    record_id: recordId,
    data,
    occurred_at: new Date().toISOString(),
    delivery_id: `manual-${recordId}-${Date.now()}`,
  });
}

export interface HeldDelivery {
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A relay between the emulator and the receiver that holds each delivery until the test releases it, so a
 * test decides what happens in the editor before a delivery arrives. `url` is the relay's address for the
 * emulator's webhook; deliveries are forwarded, headers and body unchanged, to `target`.
 */
export class DeliveryRelay {
  readonly held: HeldDelivery[] = [];
  private server: Server | undefined;
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers))
          if (typeof value === 'string' && name.startsWith('x-')) headers[name] = value;
        this.held.push({ headers, body: Buffer.concat(chunks) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/relay`;
    return this;
  }

  /** Waits for `count` deliveries to be held. */
  async waitForHeld(count: number): Promise<void> {
    await waitFor(() => this.held.length >= count, { message: `${count} deliveries held by the relay` });
  }

  /** Forwards every held delivery to the receiver, in order; resolves with the receiver's statuses. */
  async release(): Promise<number[]> {
    const statuses: number[] = [];
    for (const delivery of this.held.splice(0)) statuses.push((await deliver(this.target, delivery.body, delivery.headers)).status);
    return statuses;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
