// The least a client can do per request: node:http with a keep-alive agent, the body read whole and
// nothing else. The benches measure the emulator's own rate with it, so a figure held to "the emulator's
// rate" is not flattered by a slow client.
import { Agent, request as httpRequest } from 'node:http';

const keepAlive = new Agent({ keepAlive: true });

export interface BareAnswer {
  status: number;
  text: string;
}

export function bareRequest(method: string, url: string, headers: Record<string, string>, body?: string): Promise<BareAnswer> {
  return new Promise((resolve, reject) => {
    const sized = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
    const request = httpRequest(url, { method, agent: keepAlive, headers: sized }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}
