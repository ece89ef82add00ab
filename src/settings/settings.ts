// The one way the extension reads its settings: `setting('tree.pageSize')` is typed, validated against
// its definition (src/settings/definitions.ts) and read at the moment of use, so a change takes effect
// without a reload; `onDidChangeSettings` tells the parts that hold on to a value (the explorer's pages,
// the webhook receiver) to read again.
import * as vscode from 'vscode';
import { SECTION, settingId, SETTINGS, type SettingKey, type SettingValue } from './definitions';

export { settingId, type SettingKey, type SettingValue } from './definitions';

/** The first part of a setting's key: `webhooks` for every `portal.webhooks.*`. */
export type SettingGroup = SettingKey extends `${infer Group}.${string}` ? Group : never;

export function setting<K extends SettingKey>(key: K): SettingValue<K> {
  const raw = vscode.workspace.getConfiguration(SECTION).get<unknown>(key);
  return SETTINGS[key].normalize(raw) as SettingValue<K>;
}

/** The default of a setting, as package.json declares it too. */
export function settingDefault<K extends SettingKey>(key: K): SettingValue<K> {
  return SETTINGS[key].default as SettingValue<K>;
}

/**
 * Calls `listener` with the keys among `keys` that changed (a key may be a group such as `webhooks`, for
 * every setting under it).
 */
export function onDidChangeSettings(
  keys: readonly (SettingKey | SettingGroup)[],
  listener: (changed: string[]) => void,
): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    const changed = keys.filter((key) => event.affectsConfiguration(`${SECTION}.${key}`));
    if (changed.length > 0) listener(changed);
  });
}

/** Whether a configuration change touched one setting. */
export function affects(event: vscode.ConfigurationChangeEvent, key: SettingKey): boolean {
  return event.affectsConfiguration(settingId(key));
}
