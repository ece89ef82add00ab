// The language model tools (package.json contributes.languageModelTools), registered at activation with
// stand-ins: the tools themselves (src/tools/, no vscode) and what they use are loaded by the first call.
// VS Code calls prepareInvocation first (the progress message; for a tool that changes data, the
// confirmation the user must accept: in a chat, inline; from another extension's lm.invokeTool, a modal
// dialog), then invoke. Both hand over to PortalTools, which answers every failure as text.
import * as vscode from 'vscode';
import { Lazy } from './lazy';
import { createLogger } from './log';
import { trackToolsContext, type ConnectionsSource } from './tools/context';
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

let contextValues: Record<string, boolean> = {};

/** Tests only: the context keys as the tools last set them (VS Code offers no way to read a key back). */
export function toolsContextValues(): Readonly<Record<string, boolean>> {
  return { ...contextValues };
}

/** Registers every tool, and keeps their when clauses' keys current; `load` builds the tools on the first call of any of them. */
export function registerLazyTools(portals: ConnectionsSource, load: () => Promise<PortalTools>): vscode.Disposable {
  contextValues = {};
  const keys = trackToolsContext(portals, (key, value) => {
    contextValues[key] = value;
    // Not awaited: a context key settles on its own; nothing waits for it.
    void vscode.commands.executeCommand('setContext', key, value);
  });
  const tools = new Lazy(load);
  return vscode.Disposable.from(keys, ...Object.values(TOOL_NAMES).map((name) => vscode.lm.registerTool(name, tool(name, tools))));
}
