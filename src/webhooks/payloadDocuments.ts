// "Open Payload": a delivery's JSON as a read-only document. A TextDocumentContentProvider on its own
// scheme gives read-only documents for free (no save, no dirty state, no file on disk), JSON highlighting
// from the .json name, and a document that is rebuilt from the event log whenever VS Code asks again.
import * as vscode from 'vscode';
import { PAYLOAD_SCHEME } from '../ids';
import type { EventLog, WebhookEvent } from './eventLog';

function fileName(event: WebhookEvent): string {
  const parts = [event.event ?? 'delivery', event.appId && `app-${event.appId}`, event.recordId && `record-${event.recordId}`]
    .filter(Boolean)
    .join(' ');
  return `${parts.replace(/[^\w .-]+/g, '_').slice(0, 80)}.json`;
}

/** portal-webhook:/<seq>/<event app-N record-N>.json */
export function payloadUri(event: WebhookEvent): vscode.Uri {
  return vscode.Uri.from({ scheme: PAYLOAD_SCHEME, path: `/${event.seq}/${fileName(event)}` });
}

export class PayloadDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly events: EventLog) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const seq = Number(uri.path.split('/')[1]);
    const event = Number.isInteger(seq) ? this.events.get(seq) : undefined;
    if (!event) throw new Error('This webhook event is no longer in the Webhook Events log (cleared, or past portal.webhooks.maxEvents).');
    if (!event.body && event.verdict === 'refused') throw new Error(`The delivery was refused (${event.status}): its body was not kept.`);
    if (!event.body)
      throw new Error('The body of this delivery is no longer kept: the Webhook Events log keeps the newest bodies, up to 16 MB in all.');
    return `${JSON.stringify(event.body, null, 2)}\n`;
  }
}
