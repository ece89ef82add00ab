// The walkthrough "Get started with Portal Explorer" on the Welcome page: opened from the palette, its
// steps read (checked or not) from the screen.
import * as assert from 'node:assert/strict';
import { runCommand } from './workbench';
import { page } from './world';

/** The walkthrough's steps and whether each is checked, by step id (register, addPortal, ...). */
export async function walkthroughSteps(): Promise<Record<string, boolean>> {
  const steps = page().locator('.getting-started-step:visible');
  await steps.first().waitFor();
  const entries = await steps.evaluateAll((elements) =>
    elements.map((element) => [
      (element.getAttribute('data-step-id') ?? '').split('#').pop() ?? '',
      element.querySelector('.codicon-getting-started-step-checked') !== null,
    ]),
  );
  return Object.fromEntries(entries) as Record<string, boolean>;
}

export async function waitForStepChecked(step: string): Promise<void> {
  await page()
    .locator(`.getting-started-step[data-step-id$="#${step}"]:visible .codicon-getting-started-step-checked`)
    .waitFor({ timeout: 15_000 })
    .catch(async () => assert.fail(`The walkthrough step "${step}" is not checked: ${JSON.stringify(await walkthroughSteps())}`));
}

/**
 * Opens the walkthrough from the palette: Portal Explorer's own command, or VS Code's Welcome page (then its
 * card is clicked; Portal Explorer's command may show the list first too).
 */
export async function openWalkthrough(from: 'portalCommand' | 'welcomePage' = 'portalCommand'): Promise<void> {
  const p = page();
  await runCommand(from === 'portalCommand' ? 'Portal: Get Started with Portal Explorer' : 'Help: Welcome');
  const steps = p.locator('.getting-started-step:visible').first();
  const card = p.locator('.getting-started-category:visible', { hasText: 'Get started with Portal Explorer' }).first();
  await steps.or(card).first().waitFor();
  if (!(await steps.isVisible())) await card.click();
  await steps.waitFor();
}
