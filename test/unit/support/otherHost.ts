// A server that the client takes for another machine reached over plain http:// (issue 30, item 7), and
// that records every request reaching it. Its address is this machine's host name: not loopback by its
// spelling, so the URL rule treats it as another machine, while the hosts file maps it to loopback, so no
// test traffic leaves the loopback interface (tests send nothing to any other address).
import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { isLoopbackHost } from '../../../src/api/urls';

/** This machine's host name, which the URL rule does not take for loopback. */
export const OTHER_HOST_NAME = hostname();

/** Fails, saying why, unless the host name resolves to loopback (else the test could reach another host). */
export async function assertOtherHostNameIsLocal(): Promise<void> {
  if (isLoopbackHost(OTHER_HOST_NAME))
    throw new Error(`The host name "${OTHER_HOST_NAME}" is spelt as loopback: these tests need one that is not.`);
  const { address } = await lookup(OTHER_HOST_NAME);
  if (!isLoopbackHost(address)) {
    throw new Error(
      `The host name "${OTHER_HOST_NAME}" resolves to ${address}: these tests need it mapped to loopback (as /etc/hosts does on Debian).`,
    );
  }
}

export interface OtherHost {
  /** http://<host name>:<port> */
  readonly base: string;
  /** "METHOD /path body" of every request, in order. */
  readonly seen: string[];
  close(): Promise<void>;
}

export async function startOtherHost(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<OtherHost> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push(`${request.method} ${request.url} ${Buffer.concat(chunks).toString()}`.trimEnd());
      answer(request, response);
    });
  });
  await assertOtherHostNameIsLocal();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://${OTHER_HOST_NAME}:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
