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
