// The language model tools (package.json contributes.languageModelTools), registered at activation with
// stand-ins: the tools themselves (src/tools/, no vscode) and what they use are loaded by the first call.
// VS Code calls prepareInvocation first (the progress message; for a tool that changes data, the
// confirmation the user must accept: in a chat, inline; from another extension's lm.invokeTool, a modal
// dialog), then invoke. Both hand over to PortalTools, which answers every failure as text.
import * as vscode from 'vscode';
import { Lazy } from './lazy';
import { createLogger } from './log';
import { TOOL_NAMES, type ToolName } from './tools/names';
import type { PortalTools, Prepared, ToolInput } from './tools/toolSet';

const log = createLogger('tools');

/** An AbortSignal that follows `token`, and the listener to dispose once the call ends. */
function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}

function inputOf(value: unknown): ToolInput {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as ToolInput) : {};
}

async function withSignal<T>(token: vscode.CancellationToken, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const cancel = signalOf(token);
  try {
    return await run(cancel.signal);
  } finally {
    cancel.dispose();
  }
}

/** What prepareInvocation hands VS Code, as the integration tests see it (they cannot see VS Code's dialog). */
export type PreparedObserver = (tool: ToolName, prepared: Prepared) => Promise<void> | void;
let preparedObserver: PreparedObserver | undefined;

/** Tests only: called with each prepared invocation, and awaited, before VS Code gets it. */
export function setPreparedObserver(observer: PreparedObserver | undefined): void {
  preparedObserver = observer;
}

function tool(name: ToolName, tools: Lazy<PortalTools>): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: (options, token) =>
      withSignal(token, async (signal) => {
        const prepared = await (await tools.get()).prepare(name, inputOf(options.input), signal);
        await preparedObserver?.(name, prepared);
        return { invocationMessage: prepared.invocationMessage, confirmationMessages: prepared.confirmation };
      }),
    invoke: (options, token) =>
      withSignal(token, async (signal) => {
        const answer = await (await tools.get()).invoke(name, inputOf(options.input), signal);
        // The answer may hold record values: the log says only which tool answered, and how much.
        log.info(`${name} answered (${answer.length} characters).`);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer)]);
      }),
  };
}

/**
 * Set once the connections are read. The tools' when clauses (package.json) show them while this is unset
 * (Portal Explorer not started in this window yet: a call starts it, and the tool answers what it finds)
 * and then only while a portal is connected (portal.connected, which the connections keep current).
 * Activation stays on first use: waiting for startup to learn portal.connected would cost every window.
 */
export const PORTALS_READ_CONTEXT = 'portal.portalsRead';

/** Registers every tool; `load` builds the tools on the first call of any of them. */
export function registerLazyTools(portalsRead: Promise<void>, load: () => Promise<PortalTools>): vscode.Disposable {
  // Activation does not wait for the connections to be read; the key only widens the tools' when clauses.
  void portalsRead.then(() => vscode.commands.executeCommand('setContext', PORTALS_READ_CONTEXT, true));
  const tools = new Lazy(load);
  return vscode.Disposable.from(...Object.values(TOOL_NAMES).map((name) => vscode.lm.registerTool(name, tool(name, tools))));
}
