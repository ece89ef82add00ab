// "Portal: Add Portal": asks for the base URL, a display name, the client id and secret and the flow, one
// input at a time with validation, then signs in and stores the connection only when that worked. When
// the portal refuses (or does not answer), the message offers "Edit Details", which asks again with every
// answer filled in, the secret too: nothing is retyped.
import type * as vscode from 'vscode';
import { cancelled, isCancellation } from '../api/errors';
import { exposesInClearText, normaliseBaseUrl } from '../api/urls';
import type { AuthFlow, PortalConnection } from '../auth/portals';
import type { NewConnection, PortalService } from '../auth/portalService';
import { confirmPlainHttp } from '../auth/signInUi';
import { createLogger } from '../log';
import { describeError } from '../ui/errorBoundary';
import { prompter, tell } from '../ui/prompter';

const log = createLogger('portals');
const TITLE = 'Add Portal';
const EDIT = 'Edit Details';

interface FlowItem extends vscode.QuickPickItem {
  flow: AuthFlow;
}

const FLOW_ITEMS: readonly FlowItem[] = [
  {
    label: 'Authorization Code',
    description: 'recommended',
    detail: 'Sign in through the browser as yourself; tokens are refreshed without asking again.',
    flow: 'authorizationCode',
  },
  {
    label: 'Client Credentials',
    detail: 'The registered application signs in with its id and secret alone; no browser step.',
    flow: 'clientCredentials',
  },
];

function baseUrlProblem(value: string): string | undefined {
  if (!value.trim()) return 'Enter the address of the portal, e.g. https://portal.example.com.';
  try {
    normaliseBaseUrl(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : 'This is not a portal address.';
  }
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl.trim()).host;
  } catch {
    return '';
  }
}

async function ask(step: number, options: vscode.InputBoxOptions): Promise<string> {
  const answer = await prompter().inputBox({ title: `${TITLE} (${step}/5)`, ignoreFocusOut: true, ...options });
  if (answer === undefined) throw cancelled('Adding a portal');
  return answer.trim();
}

async function askDetails(previous: Partial<NewConnection>): Promise<NewConnection> {
  const baseUrl = await ask(1, {
    prompt: 'Base URL of the portal (as shown on its API settings page)',
    placeHolder: 'https://portal.example.com',
    value: previous.baseUrl,
    validateInput: baseUrlProblem,
  });
  const label = await ask(2, {
    prompt: 'Display name of this portal in VS Code',
    value: previous.label ?? hostOf(baseUrl),
    validateInput: (value) => (value.trim() ? undefined : 'Enter a name, e.g. Production or Staging.'),
  });
  const clientId = await ask(3, {
    prompt: 'Client ID of the application registered in the portal (System Admin > Portal Settings > Web API Setting)',
    value: previous.clientId,
    validateInput: (value) => (value.trim() ? undefined : 'Enter the Client ID shown for the registered application.'),
  });
  const clientSecret = await ask(4, {
    prompt: "Secret Key of that application (kept in VS Code's secret storage)",
    password: true,
    value: previous.clientSecret,
    validateInput: (value) => (value ? undefined : 'Enter the Secret Key shown for the registered application.'),
  });
  const items = previous.flow ? [...FLOW_ITEMS].sort((a) => (a.flow === previous.flow ? -1 : 1)) : FLOW_ITEMS;
  const picked = await prompter().quickPick(items, {
    title: `${TITLE} (5/5)`,
    placeHolder: 'How should VS Code sign in to this portal?',
    ignoreFocusOut: true,
  });
  if (!picked) throw cancelled('Adding a portal');
  return { baseUrl, label, clientId, clientSecret, flow: picked.flow };
}

/** Resolves with the new connection's id; rejects with a cancellation when the user gives up. */
export async function addPortal(portals: PortalService): Promise<string> {
  let previous: Partial<NewConnection> = {};
  for (;;) {
    const details = await askDetails(previous);
    if (exposesInClearText(normaliseBaseUrl(details.baseUrl))) {
      // Declined: the details are asked again, all filled in, to change the address to https://.
      if (!(await confirmPlainHttp(details.label, normaliseBaseUrl(details.baseUrl)))) {
        previous = details;
        continue;
      }
      details.allowPlainHttp = true;
    }
    let connection: PortalConnection;
    try {
      connection = await portals.add(details);
    } catch (error) {
      if (isCancellation(error)) throw error;
      // Reported here rather than by the command wrapper, to offer "Edit Details": one message, one line.
      const message = describeError(error);
      log.error(`portal.addPortal: ${message}`);
      if ((await prompter().error(message, EDIT)) !== EDIT) throw cancelled('Adding a portal');
      previous = details;
      continue;
    }
    tell('info', `Connected to the portal "${connection.label}" and signed in.`);
    return connection.id;
  }
}
