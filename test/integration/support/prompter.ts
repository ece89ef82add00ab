// The scripted side of the extension's prompter seam (src/ui/prompter.ts). A test queues the user's
// answers, installs the prompter through the test API, acts, and then checks what was asked and shown.
// A question with no answer queued does not wait: it fails at once, with a message that says what was
// asked, and verify() (run after each test by useScriptedPrompter) fails the test for it, even when the
// product code swallowed the rejection.
import type * as vscode from 'vscode';
import type { Prompter } from '../../../src/ui/prompter';
import { testApi } from './extension';
import { waitFor } from './wait';

export type PromptKind = 'inputBox' | 'quickPick' | 'quickPickMany' | 'saveDialog' | 'openDialog' | 'message';
export type MessageLevel = 'info' | 'warn' | 'error';

/** A question the extension asked. */
export interface PromptRecord {
  kind: PromptKind;
  /** The title, prompt and placeholder (or the message), joined with " | ". */
  text: string;
  /** The labels offered, for quick picks. */
  items?: string[];
  /** What the script answered; undefined for Escape / dismissed. */
  answer?: unknown;
  /** Messages a validateInput returned for rejected answers, in order. */
  validationMessages?: string[];
}

/** A message the extension showed. */
export interface MessageRecord {
  level: MessageLevel;
  message: string;
  actions: string[];
  modal: boolean;
  /** The action chosen by the script; undefined when dismissed. */
  answer?: string;
}

/** A quick pick answer: an item's label, a test on the item, or undefined for Escape. */
export type PickAnswer = string | ((item: vscode.QuickPickItem) => boolean) | undefined;

interface Queued<T> {
  value: T;
  /** When given, the prompt's text must match. */
  expect?: RegExp;
}

export class UnansweredPromptError extends Error {}

function describePrompt(kind: PromptKind, text: string): string {
  return `${kind}${text ? ` "${text}"` : ''}`;
}

function promptText(options: { title?: string; prompt?: string; placeHolder?: string } | undefined): string {
  return [options?.title, options?.prompt, options?.placeHolder].filter((part): part is string => Boolean(part)).join(' | ');
}

export class ScriptedPrompter implements Prompter {
  /** Every question asked, in order. */
  readonly prompts: PromptRecord[] = [];
  /** Every message shown (info, warn, error), in order. */
  readonly messages: MessageRecord[] = [];
  /** Every URI handed to openExternal. */
  readonly opened: vscode.Uri[] = [];
  /** Every text copied to the clipboard. */
  readonly clipboard: string[] = [];

  private readonly failures: string[] = [];
  private readonly queues: Record<Exclude<PromptKind, 'message'>, Array<Queued<unknown>>> = {
    inputBox: [],
    quickPick: [],
    quickPickMany: [],
    saveDialog: [],
    openDialog: [],
  };
  private readonly messageAnswers: Array<Queued<string | undefined>> = [];
  private externalHandler: (target: vscode.Uri) => boolean | Promise<boolean> = () => true;

  // ---- queueing the user's answers (each call queues one; they are used in order, per kind) ----

  /** The next input box gets `value` (undefined: the user pressed Escape). */
  answerInputBox(value: string | undefined, expect?: RegExp): this {
    this.queues.inputBox.push({ value, expect });
    return this;
  }

  /** The next single-choice quick pick gets the item with this label (or passing this test); undefined: Escape. */
  answerQuickPick(answer: PickAnswer, expect?: RegExp): this {
    this.queues.quickPick.push({ value: answer, expect });
    return this;
  }

  /** The next multiple-choice quick pick gets the items with these labels; undefined: Escape. */
  answerQuickPickMany(labels: readonly string[] | undefined, expect?: RegExp): this {
    this.queues.quickPickMany.push({ value: labels, expect });
    return this;
  }

  /**
   * The next message (info, warn or error) that offers actions and whose text matches `expect` gets
   * `action` (undefined: dismissed). Messages without a queued answer are dismissed, except modal ones
   * with actions, which are questions and fail when unanswered.
   */
  answerMessage(action: string | undefined, expect?: RegExp): this {
    this.messageAnswers.push({ value: action, expect });
    return this;
  }

  /** The next save dialog returns `uri` (undefined: cancelled). */
  answerSaveDialog(uri: vscode.Uri | undefined): this {
    this.queues.saveDialog.push({ value: uri });
    return this;
  }

  /** The next open dialog returns `uris` (undefined: cancelled). */
  answerOpenDialog(uris: readonly vscode.Uri[] | undefined): this {
    this.queues.openDialog.push({ value: uris });
    return this;
  }

  /** What openExternal does with a URI (after recording it); by default it reports success. */
  onOpenExternal(handler: (target: vscode.Uri) => boolean | Promise<boolean>): this {
    this.externalHandler = handler;
    return this;
  }

  // ---- reading what happened ----

  /** The texts of the messages shown at `level`. */
  messagesOf(level: MessageLevel): string[] {
    return this.messages.filter((record) => record.level === level).map((record) => record.message);
  }

  /** Waits until a message matching `pattern` (at `level`, when given) has been shown. */
  waitForMessage(pattern: RegExp, options: { level?: MessageLevel; timeoutMs?: number } = {}): Promise<MessageRecord> {
    return waitFor(
      () => this.messages.find((record) => (!options.level || record.level === options.level) && pattern.test(record.message)),
      {
        timeoutMs: options.timeoutMs,
        message: `a ${options.level ?? ''} message matching ${pattern} (shown so far: ${JSON.stringify(this.messages.map((m) => m.message))})`,
      },
    );
  }

  /** Unanswered questions, answers that did not fit, and answers never used. */
  problems(): string[] {
    const unused = [
      ...Object.entries(this.queues).flatMap(([kind, queue]) =>
        queue.map((item) => `an answer for a ${kind} was never used: ${JSON.stringify(item.value)}`),
      ),
      ...this.messageAnswers.map(
        (item) => `an answer for a message${item.expect ? ` matching ${item.expect}` : ''} was never used: ${JSON.stringify(item.value)}`,
      ),
    ];
    return [...this.failures, ...unused];
  }

  /** Throws when problems() is not empty. */
  verify(): void {
    const problems = this.problems();
    if (problems.length > 0) throw new UnansweredPromptError(`The scripted user saw something unexpected:\n  - ${problems.join('\n  - ')}`);
  }

  // ---- the Prompter interface ----

  async inputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    const text = promptText(options);
    const record: PromptRecord = { kind: 'inputBox', text };
    this.prompts.push(record);
    for (;;) {
      const value = this.take('inputBox', text) as string | undefined;
      record.answer = value;
      if (value === undefined || !options.validateInput) return value;
      const verdict = await options.validateInput(value);
      const problem = typeof verdict === 'string' ? verdict : verdict?.message;
      // Like the real input box: a rejected value leaves the box open for the next queued answer.
      if (!problem) return value;
      (record.validationMessages ??= []).push(problem);
    }
  }

  async quickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    const text = promptText(options);
    const labels = items.map((item) => item.label);
    const record: PromptRecord = { kind: 'quickPick', text, items: labels };
    this.prompts.push(record);
    const answer = this.take('quickPick', text) as PickAnswer;
    if (answer === undefined) return undefined;
    const chosen = items.find((item) => (typeof answer === 'string' ? item.label === answer : answer(item)));
    if (!chosen)
      this.fail(
        `${describePrompt('quickPick', text)} offers no item ${typeof answer === 'string' ? `"${answer}"` : 'passing the test'}; it offers: ${labels.join(', ')}`,
      );
    record.answer = chosen.label;
    return chosen;
  }

  async quickPickMany<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
  ): Promise<readonly T[] | undefined> {
    const text = promptText(options);
    const labels = items.map((item) => item.label);
    const record: PromptRecord = { kind: 'quickPickMany', text, items: labels };
    this.prompts.push(record);
    const answer = this.take('quickPickMany', text) as readonly string[] | undefined;
    if (answer === undefined) return undefined;
    const missing = answer.filter((label) => !labels.includes(label));
    if (missing.length > 0)
      this.fail(
        `${describePrompt('quickPickMany', text)} offers no item ${missing.map((label) => `"${label}"`).join(', ')}; it offers: ${labels.join(', ')}`,
      );
    record.answer = answer;
    return items.filter((item) => answer.includes(item.label));
  }

  async info<A extends string>(message: string, ...actions: A[]): Promise<A | undefined> {
    return this.message('info', message, false, actions);
  }

  async warn<A extends string>(message: string, options: vscode.MessageOptions, ...actions: A[]): Promise<A | undefined> {
    return this.message('warn', message, options.modal === true, actions);
  }

  async error<A extends string>(message: string, ...actions: A[]): Promise<A | undefined> {
    return this.message('error', message, false, actions);
  }

  async saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    const text = options.title ?? options.saveLabel ?? '';
    const record: PromptRecord = { kind: 'saveDialog', text };
    this.prompts.push(record);
    const answer = this.take('saveDialog', text) as vscode.Uri | undefined;
    record.answer = answer?.toString();
    return answer;
  }

  async openDialog(options: vscode.OpenDialogOptions): Promise<readonly vscode.Uri[] | undefined> {
    const text = options.title ?? options.openLabel ?? '';
    const record: PromptRecord = { kind: 'openDialog', text };
    this.prompts.push(record);
    const answer = this.take('openDialog', text) as readonly vscode.Uri[] | undefined;
    record.answer = answer?.map((uri) => uri.toString());
    return answer;
  }

  async openExternal(target: vscode.Uri): Promise<boolean> {
    this.opened.push(target);
    return this.externalHandler(target);
  }

  async copyToClipboard(text: string): Promise<void> {
    this.clipboard.push(text);
  }

  // ---- internals ----

  private message<A extends string>(level: MessageLevel, message: string, modal: boolean, actions: A[]): A | undefined {
    const record: MessageRecord = { level, message, actions: [...actions], modal };
    this.messages.push(record);
    if (actions.length === 0) return undefined;
    const index = this.messageAnswers.findIndex((item) => !item.expect || item.expect.test(message));
    if (index < 0) {
      if (modal) this.fail(`modal ${level} "${message}" asks ${actions.join(' / ')} and no answer was queued (answerMessage)`);
      return undefined;
    }
    const [{ value }] = this.messageAnswers.splice(index, 1);
    if (value !== undefined && !actions.includes(value as A))
      this.fail(`${level} "${message}" offers ${actions.join(' / ')}, not "${value}"`);
    record.answer = value;
    return value as A | undefined;
  }

  private take(kind: Exclude<PromptKind, 'message'>, text: string): unknown {
    const next = this.queues[kind].shift();
    if (!next) this.fail(`${describePrompt(kind, text)} was shown and no answer was queued`);
    if (next.expect && !next.expect.test(text))
      this.fail(`${describePrompt(kind, text)} was shown, but the queued answer ${JSON.stringify(next.value)} expects ${next.expect}`);
    return next.value;
  }

  private fail(problem: string): never {
    this.failures.push(problem);
    throw new UnansweredPromptError(`ScriptedPrompter: ${problem}.`);
  }
}

/**
 * Mocha hooks for a suite: before each test a fresh ScriptedPrompter replaces the extension's prompter;
 * after it the previous one is back and verify() fails the test for anything unanswered or unused.
 * Returns a getter for the current test's prompter.
 */
export function useScriptedPrompter(): () => ScriptedPrompter {
  let current: ScriptedPrompter | undefined;
  let previous: Prompter | undefined;
  beforeEach(async () => {
    current = new ScriptedPrompter();
    previous = (await testApi()).setPrompter(current);
  });
  afterEach(async () => {
    if (previous) (await testApi()).setPrompter(previous);
    previous = undefined;
    const finished = current;
    current = undefined;
    finished?.verify();
  });
  return () => {
    if (!current) throw new Error('useScriptedPrompter(): the prompter exists only while a test runs.');
    return current;
  };
}
