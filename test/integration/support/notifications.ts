// VS Code's own notifications (not the extension's prompter: those are the workbench's, e.g. "Failed to
// save"), read and answered in the workbench through the driver. With the smoke-test driver on they do
// not pop up as toasts: they wait in the notification center, which these helpers open.
import * as vscode from 'vscode';
import { driver } from './driver';
import { waitFor } from './wait';

const CENTER = '.notifications-center';

/** The messages in the notification center once one matches `pattern`; resolves with that one. */
export async function waitForNotification(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  await vscode.commands.executeCommand('notifications.showList');
  return waitFor(async () => (await driver.texts(`${CENTER} .notification-list-item-message`)).find((message) => pattern.test(message)), {
    message: `a notification matching ${pattern}`,
    timeoutMs,
  });
}

/** Waits for a notification matching `pattern`, then clicks the action `label` (of the first notification offering it). */
export async function clickNotificationAction(pattern: RegExp, label: string): Promise<void> {
  await waitForNotification(pattern);
  await driver.click(`${CENTER} .notification-list-item .monaco-button:has-text("${label}")`);
}

export async function clearNotifications(): Promise<void> {
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
}
