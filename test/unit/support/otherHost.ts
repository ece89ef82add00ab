// A server on one of this machine's addresses that is not loopback: to the client it is another machine
// reached over plain http:// (issue 30, item 7), and it records every request that reaches it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

/** An IPv4 address of this machine other than loopback, when it has one. */
export const NON_LOOPBACK_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && !entry.internal && entry.family === 'IPv4')?.address;

export interface OtherHost {
  /** http://<address>:<port> */
  readonly base: string;
  /** "METHOD /path body" of every request, in order. */
  readonly seen: string[];
  close(): Promise<void>;
}

export async function startOtherHost(address: string, answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<OtherHost> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push(`${request.method} ${request.url} ${Buffer.concat(chunks).toString()}`.trimEnd());
      answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    base: `http://${address}:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
