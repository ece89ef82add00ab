// The "Webhook Events" view: the deliveries received, newest first (capped by portal.webhooks.maxEvents),
// each opening into its JSON payload's fields; "Open Payload" shows the whole JSON as a read-only document.
// Refused deliveries are listed too (their bodies are not kept), so a wrong Secret Key shows where the
// user looks.
import * as vscode from 'vscode';
import type { Portals } from '../auth/portals';
import type { Catalog } from '../catalog/catalog';
import { Disposable } from '../lifecycle';
import type { EventLog, WebhookEvent } from './eventLog';
import { payloadFields } from './payloadFields';

export interface EventNode {
  readonly kind: 'event';
  readonly id: string;
  readonly event: WebhookEvent;
}

export interface FieldNode {
  readonly kind: 'field';
  readonly id: string;
  readonly parent: EventsNode;
  readonly event: WebhookEvent;
  readonly key: string;
  readonly value: unknown;
  readonly expandable: boolean;
  readonly summary: string;
}

export type EventsNode = EventNode | FieldNode;

const VERDICT_ICONS: Record<WebhookEvent['verdict'], vscode.ThemeIcon> = {
  accepted: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  ignored: new vscode.ThemeIcon('circle-outline'),
  refused: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
};

function timeOf(event: WebhookEvent): string {
  return event.receivedAt.toLocaleTimeString();
}

export class EventsTree extends Disposable implements vscode.TreeDataProvider<EventsNode> {
  private readonly changed = this._register(new vscode.EventEmitter<EventsNode | undefined>());
  readonly onDidChangeTreeData: vscode.Event<EventsNode | undefined> = this.changed.event;
  /** The same node object for the same event while it is in the log. */
  private readonly nodes = new Map<number, EventNode>();

  constructor(
    private readonly events: EventLog,
    private readonly portals: Portals,
    private readonly catalog: Catalog,
  ) {
    super();
    this._register(
      events.onDidChange(() => {
        const kept = new Set(events.list().map((event) => event.seq));
        for (const seq of this.nodes.keys()) if (!kept.has(seq)) this.nodes.delete(seq);
        this.changed.fire(undefined);
      }),
    );
  }

  getChildren(node?: EventsNode): EventsNode[] {
    if (!node) return this.events.list().map((event) => this.eventNode(event));
    const value = node.kind === 'event' ? node.event.body : node.value;
    return payloadFields(value).map((field) => ({
      kind: 'field',
      id: `${node.id}/${encodeURIComponent(field.key)}`,
      parent: node,
      event: node.event,
      ...field,
    }));
  }

  getParent(node: EventsNode): EventsNode | undefined {
    return node.kind === 'field' ? node.parent : undefined;
  }

  async getTreeItem(node: EventsNode): Promise<vscode.TreeItem> {
    if (node.kind === 'field') {
      const item = new vscode.TreeItem(
        node.key,
        node.expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.id = node.id;
      item.description = node.summary;
      item.tooltip = node.summary;
      item.contextValue = 'portal.webhookField';
      return item;
    }
    const { event } = node;
    const item = new vscode.TreeItem(
      event.event ?? 'delivery',
      event.body ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = node.id;
    item.iconPath = VERDICT_ICONS[event.verdict];
    item.contextValue = `portal.webhookEvent.${event.verdict}`;
    const portal = this.portals.list().length > 1 ? `${this.portals.get(event.portalId)?.label ?? event.portalId} · ` : '';
    let about: string;
    if (event.verdict === 'refused') about = `refused ${event.status}`;
    else if (event.appId === undefined) about = 'not about a record';
    else about = `${await this.appName(event.portalId, event.appId)} · record ${event.recordId ?? '?'}`;
    item.description = `${portal}${about} · ${timeOf(event)}`;
    item.tooltip = this.tooltip(event);
    item.accessibilityInformation = { label: `${event.event ?? 'Delivery'}, ${item.description}` };
    return item;
  }

  private eventNode(event: WebhookEvent): EventNode {
    let node = this.nodes.get(event.seq);
    if (!node) {
      node = { kind: 'event', id: `event:${event.seq}`, event };
      this.nodes.set(event.seq, node);
    }
    return node;
  }

  /** The app's name when this portal's list of apps can be had (kept by the catalog), else its id. */
  private async appName(portalId: string, appId: string): Promise<string> {
    if (this.portals.state(portalId) !== 'signedIn') return `app ${appId}`;
    try {
      return (await this.catalog.app(portalId, appId))?.name ?? `app ${appId}`;
    } catch {
      return `app ${appId}`;
    }
  }

  private tooltip(event: WebhookEvent): vscode.MarkdownString {
    const tip = new vscode.MarkdownString(undefined, true);
    tip.isTrusted = false;
    const row = (name: string, value: string | undefined): void => {
      if (value !== undefined) tip.appendMarkdown(`**${name}:** `).appendText(value).appendMarkdown('  \n');
    };
    row('Event', event.event);
    row('Portal', this.portals.get(event.portalId)?.label ?? event.portalId);
    row('App', event.appId);
    row('Record', event.recordId);
    row('Delivery', event.deliveryId);
    row('Received', event.receivedAt.toLocaleString());
    row('Answer', `${event.status} (${event.verdict})`);
    row('Signature', event.verdict === 'refused' ? undefined : event.signed ? 'valid' : 'not checked: no Secret Key is set');
    row('Reason', event.reason);
    return tip;
  }
}
