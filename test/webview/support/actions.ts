// What a user does to the toolkit's elements, through Playwright (its selectors reach into shadow roots).
import type { Locator } from 'playwright-core';

/** Opens a dropdown (vscode-dropdown) and clicks the option with exactly this label. */
export async function choose(dropdown: Locator, label: string): Promise<void> {
  await dropdown.click();
  await dropdown.getByRole('option', { name: label, exact: true }).click();
}
