// Where each app's reference template comes from: the team's workspace file first (an app's "reference"),
// then the user's `portal.references` setting for the apps the file does not give one. Both name portals
// by address; the patterns name them by this VS Code's connection id. Pure (no `vscode`).
import { sameAddress } from '../workspaceFile/merge';
import { checkTemplate, type ReferencePattern } from './patterns';

export interface SharedReference {
  readonly portalId: string;
  readonly app: { readonly appId: string; readonly reference?: string };
}

export interface ConnectionAddress {
  readonly id: string;
  readonly baseUrl: string;
}

export interface ReadPatterns {
  readonly patterns: ReferencePattern[];
  /** What was left out, and why, for the log. */
  readonly problems: string[];
}

export function readPatterns(
  shared: readonly SharedReference[],
  byPortal: Readonly<Record<string, Readonly<Record<string, string>>>>,
  connections: readonly ConnectionAddress[],
): ReadPatterns {
  const patterns: ReferencePattern[] = [];
  const problems: string[] = [];
  const add = (pattern: ReferencePattern, where: string): void => {
    const problem = checkTemplate(pattern.template);
    const taken = patterns.find((known) => known.template === pattern.template);
    if (problem !== undefined) problems.push(`${where}: ${problem}`);
    else if (patterns.some((known) => known.portalId === pattern.portalId && known.appId === pattern.appId)) return;
    else if (taken)
      problems.push(`${where}: "${pattern.template}" is app ${taken.appId}'s already (portal ${taken.portalId}); it is left out.`);
    else patterns.push(pattern);
  };
  for (const { portalId, app } of shared)
    if (app.reference !== undefined) add({ portalId, appId: app.appId, template: app.reference }, `.vscode/portal.json, app ${app.appId}`);
  for (const [baseUrl, apps] of Object.entries(byPortal)) {
    const connection = connections.find((candidate) => sameAddress(candidate.baseUrl, baseUrl));
    if (!connection) continue;
    for (const [appId, template] of Object.entries(apps))
      add({ portalId: connection.id, appId, template }, `portal.references, ${baseUrl} app ${appId}`);
  }
  return { patterns, problems };
}
