// Where an import's journal and the files it writes (failures, uncertain rows) go: beside the source, where
// a person looks for them; in the extension's own storage when the source's folder cannot be written (a
// read-only share, another user's folder), the journal under a name unique to the source's path.
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { journalPathFor } from './journal';

export interface ImportPlaces {
  journalPath: string;
  /** The folder of the failures and uncertain-rows files; undefined: beside the source. */
  outputFolder: string | undefined;
}

async function writable(folder: string): Promise<boolean> {
  return access(folder, constants.W_OK).then(
    () => true,
    () => false,
  );
}

export async function importPlaces(sourcePath: string, storageFolder: string): Promise<ImportPlaces> {
  if (await writable(dirname(sourcePath))) return { journalPath: journalPathFor(sourcePath), outputFolder: undefined };
  await mkdir(storageFolder, { recursive: true });
  return { journalPath: journalPathFor(sourcePath, storageFolder), outputFolder: storageFolder };
}
