// The seven tools by name, as VS Code calls them: prepare (the progress message, and for the tools that
// change data the confirmation) then invoke (the answer, always text: a failure is an answer too, one
// sentence the model can act on). A changing tool's invoke sends only what its prepare planned and the
// user confirmed; without such a plan it sends nothing.
import { RecordStore } from '../records/store';
import { failureText, signInPortalOf } from './answers';
import { ToolRefusal, type ToolHost, type ToolPortal } from './host';
import { TOOL_NAMES, type ToolName } from './names';
import { namedPortal } from './resolve';
import { describeApp, listPortalsAndApps, queryView, readRecord, type AppInput, type QueryInput, type RecordInput } from './reading';
import {
  prepareComment,
  prepareCreate,
  prepareUpdate,
  type CommentInput,
  type Confirmation,
  type CreateInput,
  type Plan,
  type UpdateInput,
} from './writing';

export interface Prepared {
  readonly invocationMessage: string;
  readonly confirmation?: Confirmation;
}

export type ToolInput = Readonly<Record<string, unknown>>;

interface ReadingTool {
  readonly changes: false;
  message(input: ToolInput): string;
  run(host: ToolHost, input: ToolInput, signal?: AbortSignal): Promise<string>;
}

interface ChangingTool {
  readonly changes: true;
  plan(host: ToolHost, input: ToolInput, signal: AbortSignal | undefined, records: RecordStore): Promise<Plan>;
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '?');
const onPortal = (input: ToolInput): string => (typeof input.portal === 'string' && input.portal ? ` on ${input.portal}` : '');

const TOOLS: Record<ToolName, ReadingTool | ChangingTool> = {
  [TOOL_NAMES.listPortalsAndApps]: {
    changes: false,
    message: () => 'Reading the connected portals, their sites and apps',
    run: (host, input, signal) => listPortalsAndApps(host, input as { portal?: string }, signal),
  },
  [TOOL_NAMES.describeApp]: {
    changes: false,
    message: (input) => `Reading the columns of ${text(input.app)}${onPortal(input)}`,
    run: (host, input, signal) => describeApp(host, input as unknown as AppInput, signal),
  },
  [TOOL_NAMES.queryView]: {
    changes: false,
    message: (input) =>
      `Reading view ${text(input.view)} of ${text(input.app)}${Array.isArray(input.filters) && input.filters.length > 0 ? ` with ${input.filters.length} filter${input.filters.length === 1 ? '' : 's'}` : ''}${onPortal(input)}`,
    run: (host, input, signal) => queryView(host, input as unknown as QueryInput, signal),
  },
  [TOOL_NAMES.readRecord]: {
    changes: false,
    message: (input) => `Reading record ${text(input.record)} of ${text(input.app)}${onPortal(input)}`,
    run: (host, input, signal) => readRecord(host, input as unknown as RecordInput, signal),
  },
  [TOOL_NAMES.createRecord]: {
    changes: true,
    plan: (host, input, signal, records) => prepareCreate(host, records, input as unknown as CreateInput, signal),
  },
  [TOOL_NAMES.updateRecord]: {
    changes: true,
    plan: (host, input, signal, records) => prepareUpdate(host, records, input as unknown as UpdateInput, signal),
  },
  [TOOL_NAMES.addComment]: { changes: true, plan: (host, input, signal) => prepareComment(host, input as unknown as CommentInput, signal) },
};

/** How long a confirmed plan waits for its invoke: a user may read a confirmation for a while. */
const PLAN_TTL_MS = 30 * 60 * 1000;

export class PortalTools {
  /** Plans by tool and input; `count` > 1 when the same request was prepared again before its invoke. */
  private readonly plans = new Map<string, { plan: Plan; at: number; count: number }>();
  /** Portals whose sign-in the user was offered in this session (at most once each). */
  private readonly offeredSignIn = new Set<string>();

  /** The tools' own record store: the same reads and conflict check as a document's save, its own bases. */
  private readonly records: RecordStore;

  constructor(private readonly host: ToolHost) {
    this.records = new RecordStore({
      client: (portalId) => host.client(portalId),
      columns: (portalId, appId) => host.columns(portalId, appId),
      now: () => Date.now(),
      log: host.log,
      onChanged: (record, kind) => host.recordChanged(record.portalId, record.appId, record.recordId, kind),
      ...(host.versions ? { versions: { to: host.versions, read: 'read', write: 'agent' } as const } : {}),
    });
  }

  async prepare(name: ToolName, input: ToolInput, signal?: AbortSignal): Promise<Prepared> {
    const tool = TOOLS[name];
    if (!tool.changes) return { invocationMessage: tool.message(input) };
    const plan = await tool.plan(this.host, input, signal, this.records);
    this.forgetOld();
    const key = planKey(name, input);
    // Two identical requests are told apart by nothing: the invoke could send the plan of one after the user
    // confirmed the other (another value shown, the conflict check against another base), so it sends neither.
    this.plans.set(key, { plan, at: Date.now(), count: (this.plans.get(key)?.count ?? 0) + 1 });
    return plan.ok
      ? { invocationMessage: plan.invocationMessage, confirmation: plan.confirmation }
      : { invocationMessage: plan.invocationMessage };
  }

  async invoke(name: ToolName, input: ToolInput, signal?: AbortSignal): Promise<string> {
    const tool = TOOLS[name];
    try {
      if (!tool.changes) return await tool.run(this.host, input, signal);
      const key = planKey(name, input);
      const prepared = this.plans.get(key);
      this.plans.delete(key);
      if (!prepared) throw new ToolRefusal('This change was not prepared and confirmed first, so nothing was sent. Call the tool again.');
      if (prepared.count > 1) {
        throw new ToolRefusal(
          'This change was prepared twice before it was confirmed, so it is not clear which confirmation the user gave; nothing was sent. Call the tool again.',
        );
      }
      const { plan } = prepared;
      if (!plan.ok) {
        this.offerSignIn(plan.signInPortal);
        return plan.refusal;
      }
      try {
        return await plan.send(signal);
      } catch (error) {
        this.offerSignIn(signInPortalOf(error, plan.target.portal.id));
        return failureText(error, { portalLabel: plan.target.portal.label, columns: plan.target.columns });
      }
    } catch (error) {
      const portal = this.portalOf(input);
      this.offerSignIn(signInPortalOf(error, portal?.id));
      return failureText(error, { portalLabel: portal?.label });
    }
  }

  /** The answer names the sign-in command; the user also sees a notification, once per portal. */
  private offerSignIn(portalId: string | undefined): void {
    if (portalId === undefined || this.offeredSignIn.has(portalId)) return;
    this.offeredSignIn.add(portalId);
    this.host.offerSignIn(portalId);
  }

  /** The portal a failed call was for, signed in or not (undefined when unknown). */
  private portalOf(input: ToolInput): ToolPortal | undefined {
    try {
      return namedPortal(this.host, typeof input.portal === 'string' ? input.portal : undefined);
    } catch {
      return undefined;
    }
  }

  private forgetOld(): void {
    const limit = Date.now() - PLAN_TTL_MS;
    for (const [key, entry] of this.plans) if (entry.at < limit) this.plans.delete(key);
  }
}

function planKey(name: ToolName, input: ToolInput): string {
  return `${name}\u0000${JSON.stringify(input)}`;
}
