// The receiver's settings from VS Code's configuration (section portal.webhooks), through the pure
// normalizeWebhookSettings.
import * as vscode from 'vscode';
import { normalizeWebhookSettings, type WebhookSettings } from './config';

export const SETTINGS_SECTION = 'portal.webhooks';

export function readWebhookSettings(): WebhookSettings {
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return normalizeWebhookSettings((key) => configuration.get<unknown>(key));
}

/** Settings that need the listener restarted. */
export function affectsListener(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SETTINGS_SECTION}.port`) || event.affectsConfiguration(`${SETTINGS_SECTION}.bindAddress`);
}
