// The receiver's settings from VS Code's configuration (section portal.webhooks), through the pure
// normalizeWebhookSettings.
import type * as vscode from 'vscode';
import { affects, setting } from '../settings/settings';
import { normalizeWebhookSettings, type WebhookSettings } from './config';

export const SETTINGS_SECTION = 'portal.webhooks';

export function readWebhookSettings(): WebhookSettings {
  return normalizeWebhookSettings((key) => setting(`webhooks.${key}`));
}

/** Settings that need the listener restarted. */
export function affectsListener(event: vscode.ConfigurationChangeEvent): boolean {
  return affects(event, 'webhooks.port') || affects(event, 'webhooks.bindAddress');
}
