// The webhook receiver as the rest of the extension sees it: started and stopped by the commands (or at
// start-up with portal.webhooks.autoStart), restarted when its address settings change, and the one place
// that turns each delivery into a log line, an entry of the Webhook Events view and a live refresh.
import * as vscode from 'vscode';
import type { Stores } from '../catalog/stores';
import { Disposable } from '../lifecycle';
import type { Logger } from '../log';
import { runReported } from '../ui/errorBoundary';
import { prompter, tell } from '../ui/prompter';
import { isLoopbackAddress, urlHost, type WebhookSettings } from './config';
import { EventLog } from './eventLog';
import type { LiveRefresh } from './liveRefresh';
import { WebhookReceiver, type Delivery } from './receiver';
import type { WebhookSecrets } from './secrets';
import { affectsListener, readWebhookSettings, SETTINGS_SECTION } from './settings';

/** The context key package.json's menus show Start or Stop by. */
const RUNNING_CONTEXT = 'portal.webhooks.running';

export type ReceiverState =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'running'; readonly host: string; readonly port: number }
  | { readonly kind: 'failed'; readonly message: string };

export interface DeliveryCounts {
  accepted: number;
  ignored: number;
  refused: number;
}

export type WebhookServiceParts = Pick<Stores, 'portals'> & {
  readonly secrets: WebhookSecrets;
  readonly liveRefresh: LiveRefresh;
  readonly log: Logger;
  /** The command that sets a connection's Secret Key (offered when unsigned events arrive). */
  readonly setSecretCommand: string;
};

/** Sender-controlled text in a log line: one line, clipped. */
function logText(value: string | undefined, limit = 80): string {
  if (value === undefined) return '-';
  // eslint-disable-next-line no-control-regex
  const line = value.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

export class WebhookService extends Disposable {
  readonly events: EventLog;
  private settings: WebhookSettings;
  private receiver: WebhookReceiver | undefined;
  /** The start or stop under way: they run one after the other. */
  private transition: Promise<unknown> = Promise.resolve();
  private failure: string | undefined;
  private readonly tally: DeliveryCounts = { accepted: 0, ignored: 0, refused: 0 };
  /** Connections whose refused unsigned deliveries the user was told about since the receiver started. */
  private readonly toldRefusedUnsigned = new Set<string>();
  /** Connections without a Secret Key whose unsigned deliveries the user accepts (the status warns of them). */
  private readonly unsignedAccepted = new Set<string>();
  private knownPortals: Set<string>;
  private readonly stateChanged = new vscode.EventEmitter<void>();
  /** The receiver started, stopped or failed, or a delivery was counted. */
  readonly onDidChangeState: vscode.Event<void> = this.stateChanged.event;

  constructor(private readonly parts: WebhookServiceParts) {
    super();
    this.settings = readWebhookSettings();
    this.events = this._register(new EventLog(this.settings.maxEvents));
    this.knownPortals = new Set(parts.portals.list().map((connection) => connection.id));
    this._registerAll(
      this.stateChanged,
      vscode.workspace.onDidChangeConfiguration((event) => this.onSettingsChanged(event)),
      // Not awaited: a listener; forgetting a removed portal's Secret Key logs its own failure.
      parts.portals.onDidChange(() => void this.forgetRemovedPortals()),
    );
    if (this.settings.autoStart) {
      // Not awaited: start-up goes on; a receiver that cannot start is logged, and Start offers it again.
      void this.start().catch((error: unknown) =>
        parts.log.warn(`Starting the webhook receiver at start-up: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }

  state(): ReceiverState {
    if (this.receiver) return { kind: 'running', host: this.receiver.host, port: this.receiver.listeningPort };
    if (this.failure !== undefined) return { kind: 'failed', message: this.failure };
    return { kind: 'stopped' };
  }

  counts(): Readonly<DeliveryCounts> {
    return this.tally;
  }

  /** The labels of the portals whose unsigned deliveries are accepted, as last looked up. */
  unsignedPortals(): string[] {
    return [...this.unsignedAccepted].map((id) => this.parts.portals.get(id)?.label ?? id);
  }

  /**
   * The user accepts `connectionId`'s deliveries without a signature (while it has no Secret Key): any
   * process on this machine can then send it events. Said in the status while the receiver runs.
   */
  async acceptUnsigned(connectionId: string, accept: boolean): Promise<void> {
    await this.parts.secrets.setAcceptUnsigned(connectionId, accept);
    await this.lookUpRoute(connectionId);
  }

  /** The route of a delivery's path; keeps the status's list of portals taking unsigned deliveries current. */
  private async lookUpRoute(connectionId: string): Promise<{ secret: string | undefined; acceptUnsigned: boolean } | undefined> {
    if (!this.parts.portals.get(connectionId)) return undefined;
    const secret = await this.parts.secrets.get(connectionId);
    const acceptUnsigned = secret === undefined && (await this.parts.secrets.acceptsUnsigned(connectionId));
    const before = this.unsignedAccepted.has(connectionId);
    if (acceptUnsigned) this.unsignedAccepted.add(connectionId);
    else this.unsignedAccepted.delete(connectionId);
    if (before !== acceptUnsigned) this.stateChanged.fire();
    return { secret, acceptUnsigned };
  }

  /** Where the portal delivers for this connection, while the receiver runs. */
  payloadUrl(connectionId: string): string | undefined {
    if (!this.receiver) return undefined;
    return `http://${urlHost(this.receiver.host)}:${this.receiver.listeningPort}/portal/${encodeURIComponent(connectionId)}`;
  }

  /** Starts listening; resolves false when it already was. Rejects with a sentence when it cannot. */
  start(): Promise<boolean> {
    return this.serialize(async () => {
      if (this.receiver || this.isDisposed) return false;
      // Read now rather than trust the change event to have come first (a setting written just before).
      this.settings = readWebhookSettings();
      const { bindAddress, port } = this.settings;
      let receiver: WebhookReceiver;
      try {
        receiver = await WebhookReceiver.start({
          host: bindAddress,
          port,
          settings: () => this.settings,
          route: (connectionId) => this.lookUpRoute(connectionId),
          onDelivery: (delivery) => this.onDelivery(delivery),
        });
      } catch (error) {
        // Not logged here: whoever asked for the start reports it (the error boundary, or start-up's warning).
        this.failure = error instanceof Error ? error.message : String(error);
        this.stateChanged.fire();
        throw error;
      }
      if (this.isDisposed) {
        // Disposed while the port was being bound: dispose() saw no receiver to close, so this start must.
        await receiver.close();
        return false;
      }
      this.receiver = receiver;
      this.failure = undefined;
      this.toldRefusedUnsigned.clear();
      this.unsignedAccepted.clear();
      for (const connection of this.parts.portals.list()) await this.lookUpRoute(connection.id);
      this.tally.accepted = this.tally.ignored = this.tally.refused = 0;
      await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, true);
      this.parts.log.info(
        `The webhook receiver listens on ${urlHost(bindAddress)}:${receiver.listeningPort} (deliveries to /portal/<connection id>).`,
      );
      if (!isLoopbackAddress(bindAddress)) {
        const warning = `The webhook receiver listens on ${bindAddress} (portal.webhooks.bindAddress), not only on this machine's loopback: other machines that can reach it can send it events. Set a Secret Key for every portal.`;
        this.parts.log.warn(warning);
        tell('warn', warning);
      }
      this.stateChanged.fire();
      return true;
    });
  }

  /** Stops listening; resolves false when it was not. */
  stop(): Promise<boolean> {
    return this.serialize(async () => {
      const receiver = this.receiver;
      this.failure = undefined;
      if (!receiver) {
        this.stateChanged.fire();
        return false;
      }
      this.receiver = undefined;
      await receiver.close();
      await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, false);
      this.parts.log.info('The webhook receiver stopped.');
      this.stateChanged.fire();
      return true;
    });
  }

  override dispose(): void {
    const receiver = this.receiver;
    this.receiver = undefined;
    // Not awaited: dispose() is synchronous; the socket closes on its own.
    void receiver?.close();
    super.dispose();
  }

  private serialize<T>(action: () => Promise<T>): Promise<T> {
    const next = this.transition.then(action, action);
    this.transition = next.catch(() => undefined);
    return next;
  }

  private onDelivery(delivery: Delivery): void {
    const { connectionId, verdict } = delivery;
    const about = delivery.payload ? `, app ${logText(delivery.payload.app_id)}, record ${logText(delivery.payload.record_id)}` : '';
    const line = `Delivery ${logText(delivery.deliveryId)} to ${logText(connectionId ?? 'no portal')} (${logText(delivery.event)}${about}): ${verdict} ${delivery.status}${delivery.signed ? ', signed' : ''}${delivery.reason ? `: ${delivery.reason}` : ''}`;
    if (verdict === 'refused') this.parts.log.warn(line);
    else this.parts.log.info(line);
    this.tally[verdict] += 1;
    if (connectionId !== undefined) {
      this.events.add({
        receivedAt: delivery.receivedAt,
        portalId: connectionId,
        verdict,
        status: delivery.status,
        reason: delivery.reason,
        signed: delivery.signed,
        event: delivery.event,
        appId: delivery.payload?.app_id,
        recordId: delivery.payload?.record_id,
        deliveryId: delivery.deliveryId,
        body: delivery.body,
        bytes: delivery.bytes,
      });
      if (delivery.unsignedRefused) this.offerUnsignedChoices(connectionId);
      if (delivery.payload) {
        try {
          this.parts.liveRefresh.handle(connectionId, delivery.payload);
        } catch (error) {
          this.parts.log.error(
            `Refreshing after delivery ${logText(delivery.deliveryId)}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    }
    this.stateChanged.fire();
  }

  /**
   * Unsigned deliveries were refused because the portal has no Secret Key and the user did not accept them:
   * offered once per start, the two ways to take them.
   */
  private offerUnsignedChoices(connectionId: string): void {
    if (this.toldRefusedUnsigned.has(connectionId)) return;
    this.toldRefusedUnsigned.add(connectionId);
    const label = this.parts.portals.get(connectionId)?.label ?? connectionId;
    const message = `Webhook events for "${label}" were refused: they are not signed, and no Secret Key is set for this portal. Set the same Secret Key here and in the portal's Webhook Settings, or accept unsigned events for this portal (then any program on this machine can send events that make Portal Explorer read records with your sign-in).`;
    const setKey = 'Set Secret Key';
    const accept = 'Accept Unsigned';
    // Not awaited: the delivery is answered now; the offer stays up until the user answers.
    void prompter()
      .warn(message, {}, setKey, accept)
      .then(async (choice) => {
        if (choice === setKey) await vscode.commands.executeCommand(this.parts.setSecretCommand, connectionId);
        if (choice === accept) {
          await this.acceptUnsigned(connectionId, true);
          this.parts.log.warn(`Unsigned webhook events for ${connectionId} are accepted, as the user chose.`);
          tell(
            'info',
            `Unsigned webhook events for "${label}" are accepted until you set its Secret Key (Portal: Set Webhook Secret Key…).`,
          );
        }
      })
      .then(undefined, () => undefined);
  }

  private onSettingsChanged(event: vscode.ConfigurationChangeEvent): void {
    if (!event.affectsConfiguration(SETTINGS_SECTION)) return;
    const before = this.settings;
    this.settings = readWebhookSettings();
    if (this.settings.maxEvents !== before.maxEvents) this.events.setCap(this.settings.maxEvents);
    if (!affectsListener(event) || !this.receiver) return;
    if (this.settings.port === before.port && this.settings.bindAddress === before.bindAddress) return;
    // Not awaited: a settings listener; the restart's failure goes through the error boundary (one message, one log line).
    void runReported(`${SETTINGS_SECTION} restart`, async () => {
      await this.stop();
      await this.start();
      const port = this.receiver?.listeningPort;
      tell(
        'info',
        `The webhook receiver now listens on ${urlHost(this.settings.bindAddress)}:${port}. Update the Payload URL in the portal's Webhook Settings.`,
      );
    });
  }

  private async forgetRemovedPortals(): Promise<void> {
    const now = new Set(this.parts.portals.list().map((connection) => connection.id));
    const removed = [...this.knownPortals].filter((id) => !now.has(id));
    this.knownPortals = now;
    for (const id of removed) {
      try {
        await this.parts.secrets.forget(id);
      } catch (error) {
        this.parts.log.warn(
          `Forgetting the webhook Secret Key of the removed portal ${id}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
