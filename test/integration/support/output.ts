// The Output panel as the user sees it, through the driver ([browser] tests only).
import { driver } from './driver';
import { waitFor } from './wait';

/** Waits until the Output panel shows the channel `name` (its channel picker), and resolves with it. */
export function waitForOutputChannel(name: string): Promise<string> {
  return waitFor(
    async () => {
      const shown = await driver.evaluate<string | null>(
        `(() => { const s = document.querySelector('.part.panel select.monaco-select-box'); return s ? s.options[s.selectedIndex]?.text ?? null : null; })()`,
      );
      return shown === name ? shown : undefined;
    },
    { message: `the Output panel to show the "${name}" channel` },
  );
}
