// The notification an import or bulk change runs under: count, rate and time left, and Cancel, which
// aborts the run between requests (the journal keeps what was done, so it resumes from there).
import * as vscode from 'vscode';
import type { RunProgress } from '../import/runner';

const number = (value: number): string => value.toLocaleString('en-US');

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

/** "120 of 2,000 · 45 rows/s · about 42 s left". */
export function progressText(progress: RunProgress): string {
  const parts = [progress.total === undefined ? number(progress.done) : `${number(progress.done)} of ${number(progress.total)}`];
  if (progress.ratePerSecond > 0) parts.push(`${progress.ratePerSecond >= 10 ? Math.round(progress.ratePerSecond) : progress.ratePerSecond.toFixed(1)} rows/s`);
  if (progress.secondsLeft !== undefined) parts.push(`about ${duration(progress.secondsLeft)} left`);
  return parts.join(' · ');
}

/** Runs `work` under a cancellable progress notification; `work` gets the signal and a progress callback. */
export function withRunProgress<T>(title: string, work: (signal: AbortSignal, report: (progress: RunProgress) => void) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
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
  });
}
