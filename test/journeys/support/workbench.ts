// What a person does in the workbench, with Playwright: the command palette, quick inputs and picks,
// notifications and their buttons, the Portal view's rows, tabs and the Problems panel. Each action
// waits for the condition it needs (a visible input, a row, a message), never for a fixed time.
import type { Locator, Page } from 'playwright-core';
import { resetEmulator } from './emulator';
import { page } from './world';

const QUICK_INPUT = '.quick-input-widget';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Waits until the workbench is up with Portal Explorer's icon in the activity bar (it activates on first use). */
export async function workbenchReady(p: Page = page()): Promise<void> {
  await p.locator('.part.statusbar').waitFor({ timeout: 90_000 });
  await p.locator('.activitybar a.action-label[aria-label^="Portal"]').first().waitFor({ timeout: 90_000 });
}

/**
 * Developer: Reload Window, and the new workbench up. The new page's load is awaited first: the old
 * workbench stays on screen a moment, and its panels would otherwise be found and read as if restored.
 */
export async function reloadWindow(): Promise<void> {
  const reloaded = page().waitForEvent('load', { timeout: 90_000 });
  await runCommand('Developer: Reload Window');
  await reloaded;
  await workbenchReady();
}

/** Where every journey starts: the workbench up, the portal's data as seeded, no editor and no notification open. */
export async function freshStart(): Promise<void> {
  await workbenchReady();
  await resetEmulator();
  await closeAllEditors();
  await clearNotifications();
}

/** F1, the command's title typed, and Enter on exactly that entry. */
export async function runCommand(title: string): Promise<void> {
  const p = page();
  const row = p
    .locator(`${QUICK_INPUT} .monaco-list-row`)
    .first()
    .filter({ hasText: new RegExp(`^${escapeRegExp(title)}`) });
  // Under load the palette can take the first keys before its input has the focus, and the title typed
  // arrives cut: as a person would, close it and type again (three tries).
  for (let attempt = 1; ; attempt += 1) {
    await p.keyboard.press('Escape');
    await p.keyboard.press('F1');
    await p.locator(`${QUICK_INPUT} input.input`).waitFor();
    await p.keyboard.type(title);
    try {
      await row.waitFor({ timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await p.keyboard.press('Enter');
}

/** Types `text` into the quick input whose prompt or title matches `prompt`, replacing its value, and presses Enter. */
export async function answerInput(prompt: RegExp, text: string): Promise<void> {
  const p = page();
  const widget = p.locator(QUICK_INPUT).filter({ hasText: prompt });
  await widget.waitFor();
  await widget.locator('input.input').focus();
  await p.keyboard.press('ControlOrMeta+a');
  await p.keyboard.type(text);
  await p.keyboard.press('Enter');
  await widget
    .filter({ hasText: prompt })
    .waitFor({ state: 'hidden' })
    .catch(() => undefined);
}

/** Types `label` into the open quick pick (its title or placeholder matching `prompt`) and picks the entry with that label. */
export async function pick(prompt: RegExp, label: string): Promise<void> {
  const p = page();
  const widget = p.locator(`${QUICK_INPUT}:visible`);
  await widget.waitFor();
  const shown = async (): Promise<string> =>
    `${await widget.innerText()} ${(await widget.locator('input.input').getAttribute('placeholder')) ?? ''}`;
  const deadline = Date.now() + 15_000;
  while (!prompt.test(await shown())) {
    if (Date.now() > deadline) throw new Error(`The quick pick shows "${await shown()}", not ${prompt}.`);
    await p.waitForTimeout(100);
  }
  await p.keyboard.type(label);
  // A click on the row that says it, as a person does: Enter takes whichever row is in focus, and typing
  // outruns the list's filtering (Enter once removed 'Demo portal' when 'Staging' was typed).
  // When the list goes (another prompt took the quick input's place), the failure says what it shows now.
  await widget
    .locator('.monaco-list-row', { hasText: label })
    .first()
    .click({ timeout: 15_000 })
    .catch(async (error: unknown) => {
      const now = await p
        .locator(QUICK_INPUT)
        .innerText()
        .catch(() => '(nothing)');
      throw new Error(`No row "${label}" to click in the quick pick; it shows "${now}"`, { cause: error });
    });
}

/**
 * The notification whose message matches `text`, once it shows: as a toast, or else in the notification
 * center (VS Code keeps a toast away at times, e.g. while another toast holds the place; a person then
 * opens the center with the bell).
 */
export async function notification(text: RegExp, timeout = 30_000): Promise<Locator> {
  const p = page();
  const withText = p.locator('.notification-list-item-message', { hasText: text });
  const toast = p.locator('.notifications-toasts .notification-list-item').filter({ has: withText }).first();
  try {
    await toast.waitFor({ timeout: Math.min(timeout, 10_000) });
    return toast;
  } catch {
    await runCommand('Notifications: Show Notifications');
    const inCenter = p.locator('.notifications-center .notification-list-item').filter({ has: withText }).first();
    await inCenter.waitFor({ timeout });
    return inCenter;
  }
}

/** Clicks a notification's button. */
export async function clickNotificationButton(text: RegExp, button: string | RegExp): Promise<void> {
  const item = await notification(text);
  await item.hover();
  await item.getByRole('button', typeof button === 'string' ? { name: button, exact: true } : { name: button }).click();
}

/** Clears every notification (so that the next journey reads only its own). */
export async function clearNotifications(): Promise<void> {
  await runCommand('Notifications: Clear All Notifications');
}

/** Closes every editor, answering "Don't Save" if VS Code asks. */
export async function closeAllEditors(): Promise<void> {
  const p = page();
  // Under load the command can reach the workbench before an editor that was just opening (the
  // walkthrough) has its tab: as a person would, run it again while a tab is left (three tries).
  for (let attempt = 1; ; attempt += 1) {
    await runCommand('View: Close All Editors');
    const dontSave = p.getByRole('button', { name: "Don't Save" });
    if (await dontSave.isVisible().catch(() => false)) await dontSave.click();
    try {
      await p.locator('.part.editor .tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The Portal view (activity bar), shown. */
export async function showPortalView(): Promise<Locator> {
  const p = page();
  const view = p.locator('.part.sidebar').filter({ has: p.locator('.composite.title', { hasText: /portal/i }) });
  if (!(await view.isVisible().catch(() => false))) await p.locator('.activitybar a.action-label[aria-label^="Portal"]').first().click();
  await view.waitFor();
  return view;
}

/** The row of the Portal view whose label starts with `label` (an aria-label, first line). */
export function treeRow(label: string | RegExp): Locator {
  const pattern = typeof label === 'string' ? new RegExp(`^${escapeRegExp(label)}`) : label;
  return page()
    .locator('.part.sidebar .monaco-list-row')
    .filter({ has: page().locator('.label-name, .monaco-highlighted-label', { hasText: pattern }) })
    .first();
}

/** Clicks a row of the Portal view and expands it with the Right arrow key, waiting for a child. */
export async function expand(label: string | RegExp): Promise<void> {
  await showPortalView();
  const row = treeRow(label);
  await row.click();
  if ((await row.getAttribute('aria-expanded')) !== 'true') await page().keyboard.press('ArrowRight');
  await row.and(page().locator('[aria-expanded="true"]')).waitFor();
}

/** The labels of the editor tabs, as shown. */
export async function tabLabels(): Promise<string[]> {
  return page().locator('.part.editor .tabs-container .tab .label-name').allTextContents();
}

/** Each tab as a person reads it: its name and, where VS Code adds one to tell alike tabs apart, its description. */
export async function tabTitles(): Promise<string[]> {
  return page()
    .locator('.part.editor .tabs-container .tab')
    .evaluateAll((tabs) =>
      tabs.map((tab) =>
        [tab.querySelector('.label-name'), tab.querySelector('.label-description')]
          .map((part) => part?.textContent?.trim() ?? '')
          .filter(Boolean)
          .join(' '),
      ),
    );
}

/** The active editor's text, as Monaco shows it (every line rendered: the records are short). */
export async function editorText(): Promise<string> {
  const lines = page().locator('.part.editor .editor-instance .view-lines .view-line');
  const tops = await lines.evaluateAll((elements) =>
    elements.map((element) => ({
      top: parseFloat((element as unknown as { style: { top: string } }).style.top),
      text: (element.textContent ?? '').replace(/\u00a0/g, ' '),
    })),
  );
  return tops
    .sort((a, b) => a.top - b.top)
    .map((line) => line.text)
    .join('\n');
}

/** Puts the cursor at the end of the first line of the active editor that contains `text`, through Go to Line. */
export async function goToLineWith(text: string): Promise<void> {
  const content = await editorText();
  const index = content.split('\n').findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`No line with "${text}" in the editor:\n${content}`);
  const p = page();
  await p.keyboard.press('Control+g');
  await p.locator(`${QUICK_INPUT} input.input`).waitFor();
  await p.keyboard.type(String(index + 1));
  await p.keyboard.press('Enter');
  await p.keyboard.press('End');
}

export interface Problem {
  severity: 'error' | 'warning' | 'info';
  text: string;
}

/** Opens the Problems panel and reads its entries (file rows left out). */
export async function problems(): Promise<Problem[]> {
  await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
  const p = page();
  await p.locator('.markers-panel').waitFor();
  const rows = await p
    .locator('.markers-panel .monaco-list-row')
    .evaluateAll((elements) => elements.map((element) => ({ html: element.innerHTML, text: (element.textContent ?? '').trim() })));
  return rows.flatMap(({ html, text }) => {
    const severity = /codicon-(error|warning|info)\b/.exec(html)?.[1] as Problem['severity'] | undefined;
    return severity ? [{ severity, text }] : [];
  });
}

/** Replaces the value of `key` in the active record document by selecting it with the keyboard and typing. */
export async function setFieldValue(key: string, value: string): Promise<void> {
  const p = page();
  const lines = (await editorText()).split('\n');
  const index = lines.findIndex((line) => line.includes(`"${key}"`));
  const match = index < 0 ? null : /: "([^"]*)"(,?)\s*$/.exec(lines[index]);
  if (!match) throw new Error(`No value of "${key}" in the editor:\n${lines.join('\n')}`);
  await p.locator('.part.editor .view-lines').first().click();
  await p.keyboard.press('Control+g');
  await p.locator(`${QUICK_INPUT} input.input`).waitFor();
  await p.keyboard.type(String(index + 1));
  await p.keyboard.press('Enter');
  await p.keyboard.press('End');
  // Past the closing quote (and comma), then the old value selected character by character.
  for (let i = 0; i < 1 + match[2].length; i += 1) await p.keyboard.press('ArrowLeft');
  for (let i = 0; i < match[1].length; i += 1) await p.keyboard.press('Shift+ArrowLeft');
  await p.keyboard.type(value);
}

/** Ctrl+S in the active editor. */
export async function save(): Promise<void> {
  await page().keyboard.press('Control+s');
}

/**
 * Answers VS Code's own file dialog in the browser (a quick input titled `title`), as a person does: once
 * it shows what it proposes (`proposed` holds for its value), `typed` goes in where it put the cursor or
 * selection (a save dialog selects the proposed name, an open dialog's cursor follows the folder); when the
 * value reads `expected` and the dialog has checked it (it does at each keystroke), its `button` (an open
 * dialog's is labelled by the command, a save dialog's OK). Typing a whole path
 * instead races the dialog's own listing of the folder it starts in.
 */
export async function answerFileDialog(
  title: RegExp,
  proposed: (value: string) => boolean,
  typed: string,
  expected: string,
  button = 'OK',
): Promise<void> {
  const p = page();
  const dialog = p.locator(QUICK_INPUT, { hasText: title });
  const input = dialog.locator('input.input');
  await input.waitFor();
  const valueIs = async (wanted: (value: string) => boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 30_000;
    for (let value = await input.inputValue(); !wanted(value); value = await input.inputValue()) {
      if (Date.now() > deadline) throw new Error(`The file dialog shows "${value}", not ${what}.`);
      await p.waitForTimeout(100);
    }
  };
  await valueIs(proposed, 'what it proposes');
  await p.keyboard.type(typed);
  await valueIs((value) => value === expected, expected);
  await dialog.locator('.quick-input-message', { hasText: /already exists|does not exist/ }).waitFor({ state: 'hidden' });
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}
