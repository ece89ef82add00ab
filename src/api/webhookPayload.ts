// A webhook delivery's JSON body, read tolerantly: the documentation does not show the payload, so the
// emulator's shape (test/emulator/README.md) is expected, numbers are accepted where strings are, extra
// fields are kept, and what the receiver cannot do without is refused with a sentence that names it.
import { PortalError } from './errors';
import type { RecordData } from './types';
import { coerceFieldValues, isObject, textOf } from './wire';

export interface WebhookPayload {
  /** e.g. record.created, record.updated, record.deleted, comment.created, attachment.created */
  event: string;
  app_id: string;
  record_id: string;
  /** The record's data after the event (before it, for record.deleted); {} when the payload has none. */
  data: RecordData;
  /** ISO 8601, when the payload says. */
  occurred_at: string | undefined;
  /** The delivery's id, from the body or else the X-Portal-Delivery header. */
  delivery_id: string | undefined;
  /** Every field of the body, the unknown ones included. */
  raw: Record<string, unknown>;
}

/** What the delivery's headers say, used where the body is silent. */
export interface WebhookHeaderHints {
  event?: string;
  deliveryId?: string;
}

function refuse(message: string): PortalError {
  return new PortalError({
    kind: 'invalid-input',
    message: `The webhook delivery cannot be used: ${message}`,
    code: 'invalid_webhook_payload',
  });
}

/** Parses a delivery body (the raw bytes or text as received, or an already parsed value). */
export function parseWebhookPayload(body: string | Uint8Array | unknown, hints: WebhookHeaderHints = {}): WebhookPayload {
  let parsed: unknown = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    try {
      parsed = JSON.parse(text);
    } catch {
      throw refuse('the body is not JSON.');
    }
  }
  if (!isObject(parsed)) throw refuse('the body is not a JSON object.');
  const raw = parsed;

  const event = textOf(raw.event) ?? hints.event;
  if (!event) throw refuse('it has no "event".');
  const appId = textOf(raw.app_id);
  if (!appId) throw refuse('it has no "app_id".');
  const recordId = textOf(raw.record_id);
  if (!recordId) throw refuse('it has no "record_id".');

  let data: RecordData = {};
  if (raw.data !== undefined && raw.data !== null) {
    if (!isObject(raw.data)) throw refuse('its "data" is not an object.');
    data = coerceFieldValues({ ...raw.data });
  }
  return {
    event,
    app_id: appId,
    record_id: recordId,
    data,
    occurred_at: textOf(raw.occurred_at),
    delivery_id: textOf(raw.delivery_id) ?? hints.deliveryId,
    raw,
  };
}
