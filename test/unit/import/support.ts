// What the import tests share: a temporary folder per suite, removed afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempFolder(): { readonly path: string } {
  let path = '';
  before(async () => {
    path = await mkdtemp(join(tmpdir(), 'portal-import-'));
  });
  after(async () => {
    await rm(path, { recursive: true, force: true });
  });
  return {
    get path(): string {
      return path;
    },
  };
}

/** One customer row of the test files: a unique name, an e-mail, a tier by name, an ISO date. */
export function customerLine(index: number, prefix = 'Import'): string {
  const tier = ['Bronze', 'Silver', 'Gold'][index % 3];
  return `${prefix} customer ${index},c${index}@example.com,${tier},2026-01-${String((index % 28) + 1).padStart(2, '0')}`;
}

export const CUSTOMER_HEADER = 'Name,Email,Tier,Customer since';

/** A CSV of `count` customers for app 101, numbered from `first`. */
export function customersCsv(count: number, first = 1, prefix = 'Import'): string {
  const lines = [CUSTOMER_HEADER];
  for (let index = first; index < first + count; index += 1) lines.push(customerLine(index, prefix));
  return `${lines.join('\n')}\n`;
}
