// package.json as the extension contributes it, read from the repository the tests were built from.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../webview/support/repo';

export interface ConfigurationProperty {
  type?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  enumDescriptions?: string[];
  pattern?: string;
  maxLength?: number;
  scope?: string;
  description?: string;
  markdownDescription?: string;
  additionalProperties?: { type?: string; pattern?: string; additionalProperties?: { type?: string; pattern?: string } };
}

export interface CommandContribution {
  command: string;
  title: string;
  category?: string;
}

export interface LanguageModelToolContribution {
  name: string;
  toolReferenceName?: string;
  displayName: string;
  modelDescription: string;
  userDescription?: string;
  canBeReferencedInPrompt?: boolean;
  when?: string;
  tags?: string[];
  inputSchema: { type: string; properties: Record<string, { type?: string; enum?: string[] }>; required?: string[] };
}

export interface Manifest {
  name: string;
  publisher: string;
  version: string;
  activationEvents: string[];
  contributes: {
    commands: CommandContribution[];
    configuration: { properties: Record<string, ConfigurationProperty> };
    walkthroughs?: Array<{ id: string; steps: Array<{ id: string; description: string; completionEvents?: string[] }> }>;
    viewsWelcome?: Array<{ view: string; contents: string; when?: string }>;
    languageModelTools?: LanguageModelToolContribution[];
  };
}

export function manifest(): Manifest {
  return JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as Manifest;
}

export function readRepoFile(path: string): string {
  return readFileSync(join(repoRoot(), path), 'utf8');
}

/** The size in bytes of a file of the repository (throws when it does not exist). */
export function repoFileSize(path: string): number {
  return statSync(join(repoRoot(), path)).size;
}
