// The notification an import or bulk change runs under: count, rate and time left, and Cancel, which
// aborts the run between requests (the journal keeps what was done, so it resumes from there).
import * as vscode from 'vscode';
import { progressText } from '../import/report';
import type { RunProgress } from '../import/runner';

/** Runs `work` under a cancellable progress notification; `work` gets the signal and a progress callback. */
export function withRunProgress<T>(
  title: string,
  work: (signal: AbortSignal, report: (progress: RunProgress) => void) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      let reported = 0;
      let lastShown = 0;
      try {
        return await work(controller.signal, (now) => {
          const percent = now.total ? (now.done / now.total) * 100 : 0;
          const at = Date.now();
          // A notification redrawn per row would cost more than the rows: at most a few times a second.
          if (at - lastShown < 200 && now.done !== now.total) return;
          lastShown = at;
          progress.report({ message: progressText(now), increment: Math.max(0, percent - reported) });
          reported = Math.max(reported, percent);
        });
      } finally {
        subscription.dispose();
      }
    },
  );
}
