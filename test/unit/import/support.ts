// What the import tests share: a temporary folder per suite, removed afterwards, and the emulator a
// suite imports into, with a client, the columns of apps 101 and 102 and a writer of source files.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PortalClient } from '../../../src/api/client';
import type { Column } from '../../../src/api/types';
import { clientFor, emulatorControl, startPortal, type Emulator } from '../../support/portal';

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

export interface ImportPortalOptions {
  /**
   * What is reset before each test: the records and the request log (the default: tests count the
   * requests of their own run), the records only, or nothing (suites that set the emulator up themselves).
   */
  reset?: 'records-and-requests' | 'records' | 'none';
  /** The start of the source files' names: `${prefix}-1.csv`, `${prefix}-2.json`... */
  filePrefix?: string;
}

export interface ImportPortal {
  readonly emulator: Emulator;
  readonly client: PortalClient;
  /** The columns of app 101 (Customers). */
  readonly customers: Column[];
  /** The columns of app 102 (Orders). */
  readonly orders: Column[];
  /** The suite's temporary folder. */
  readonly folder: string;
  /** Writes `content` to a new file of the folder and resolves with its path. */
  file(content: string, extension?: string): Promise<string>;
}

/** One emulator for the suite it is called in, started before it, closed after it and reset before each test. */
export function useImportPortal(options: ImportPortalOptions = {}): ImportPortal {
  const { reset = 'records-and-requests', filePrefix = 'source' } = options;
  const folder = tempFolder();
  let emulator: Emulator | undefined;
  let client: PortalClient | undefined;
  let customers: Column[] = [];
  let orders: Column[] = [];
  let files = 0;
  const started = (): Emulator => {
    if (!emulator) throw new Error('useImportPortal: the emulator is started in the before hook; read it in a test or hook');
    return emulator;
  };

  before(async () => {
    emulator = await startPortal();
    client = clientFor(emulator).client;
    customers = await client.listColumns('101');
    orders = await client.listColumns('102');
  });
  after(() => emulator?.close());
  beforeEach(async () => {
    if (reset === 'none') return;
    await emulatorControl(started(), 'POST', 'reset');
    if (reset === 'records-and-requests') await emulatorControl(started(), 'DELETE', 'requests');
  });

  return {
    get emulator(): Emulator {
      return started();
    },
    get client(): PortalClient {
      if (!client) throw new Error('useImportPortal: the client is made in the before hook; read it in a test or hook');
      return client;
    },
    get customers(): Column[] {
      return customers;
    },
    get orders(): Column[] {
      return orders;
    },
    get folder(): string {
      return folder.path;
    },
    async file(content: string, extension = 'csv'): Promise<string> {
      const path = join(folder.path, `${filePrefix}-${(files += 1)}.${extension}`);
      await writeFile(path, content);
      return path;
    },
  };
}
