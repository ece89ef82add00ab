// What a redirect may carry where (issue 30, item 3). Two small node:http servers on 127.0.0.1 play a
// portal's edge that redirects (a proxy, a load balancer gone wrong, a hostile host) and the other origin it
// points at; the second records everything that reaches it, headers and bodies, so the test can say that no
// secret did. The portal's own answers are the emulator's, in every other client test.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PortalClient } from '../../../src/api/client';
import { PortalError } from '../../../src/api/errors';
import { clientCredentials, exchangeCode, refresh } from '../../../src/api/oauth';

const CLIENT_ID = 'client-id-1';
const SECRETS = {
  clientSecret: 'client-secret-s3cr3t',
  refreshToken: 'refresh-token-r3fr3sh',
  code: 'authorization-code-c0de',
  verifier: 'pkce-verifier-v3r1f13r-0123456789abcdefghijklmnop',
  accessToken: 'access-token-4cc3ss',
};
const STATUSES = [301, 302, 303, 307, 308] as const;

interface Seen {
  method: string;
  url: string;
  /** Every header and the body, as one text to search for secrets. */
  everything: string;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface Local {
  base: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function serve(handler: Handler): Promise<Local> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        everything: `${request.url ?? ''}\n${JSON.stringify(request.headers)}\n${body}`,
      });
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers as a portal would, whatever the path: a token for the token endpoint, an empty view, a write taken. */
function portalAnswer(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('Content-Type', 'application/json');
  if ((request.url ?? '').endsWith('/oauth2/token')) {
    response.end(
      JSON.stringify({ access_token: 'new-access', expires_in: 3600, token_type: 'Bearer', scope: null, refresh_token: 'new-refresh' }),
    );
  } else if (request.method === 'GET') {
    response.end(JSON.stringify({ data: [], metadata: [] }));
  } else {
    response.end(JSON.stringify({ id: '7' }));
  }
}

function leaked(server: Local): string[] {
  return server.seen.flatMap((seen) =>
    Object.entries(SECRETS)
      .filter(([, secret]) => seen.everything.includes(secret))
      .map(([name]) => `${name} in ${seen.method} ${seen.url}`),
  );
}

describe('redirects: what follows to another origin (issue 30)', () => {
  let other: Local;
  let edge: Local;
  /** Where the edge sends each request: to the other origin, or to its own /moved/… */
  let target: 'other' | 'same';
  let status: number;

  before(async () => {
    other = await serve(portalAnswer);
    edge = await serve((request, response) => {
      const url = request.url ?? '/';
      if (url.startsWith('/moved/')) {
        portalAnswer(request, response);
        return;
      }
      const location = target === 'other' ? `${other.base}${url}` : `/moved${url}`;
      response.writeHead(status, { Location: location }).end();
    });
  });
  after(async () => {
    await Promise.all([other.close(), edge.close()]);
  });
  beforeEach(() => {
    other.seen.length = 0;
    edge.seen.length = 0;
  });

  const common = (): { baseUrl: string; clientId: string; clientSecret: string } => ({
    baseUrl: edge.base,
    clientId: CLIENT_ID,
    clientSecret: SECRETS.clientSecret,
  });
  const client = (): PortalClient =>
    new PortalClient({
      baseUrl: edge.base,
      tokens: { accessToken: async () => SECRETS.accessToken, renewAfterUnauthorized: async () => undefined },
    });

  const calls: Record<string, () => Promise<unknown>> = {
    'the refresh': () => refresh({ ...common(), refreshToken: SECRETS.refreshToken }),
    'the code exchange': () =>
      exchangeCode({ ...common(), code: SECRETS.code, codeVerifier: SECRETS.verifier, redirectUri: 'http://127.0.0.1:1/cb' }),
    'the client credentials sign-in': () => clientCredentials(common()),
    'a record created': () => client().createRecord('101', { f1: 'value' }),
    'a record updated': () => client().updateRecord('101', '7', { f1: 'value' }),
    'a record deleted': () => client().deleteRecord('101', '7'),
    'a comment added': () => client().addComment('101', '7', 'a comment'),
  };

  for (const code of STATUSES) {
    for (const [name, call] of Object.entries(calls)) {
      it(`${name}, redirected by ${code} to another origin, is not followed; the error names both origins`, async () => {
        target = 'other';
        status = code;
        await assert.rejects(call(), (error: unknown) => {
          assert.ok(error instanceof PortalError, String(error));
          assert.equal(error.code, 'cross_origin_redirect');
          assert.ok(error.message.includes(edge.base) && error.message.includes(other.base), error.message);
          for (const secret of Object.values(SECRETS)) assert.ok(!error.message.includes(secret), error.message);
          return true;
        });
        assert.deepEqual(leaked(other), []);
        assert.deepEqual(
          other.seen.map((seen) => `${seen.method} ${seen.url}`),
          [],
          'nothing reaches the other origin',
        );
      });
    }

    it(`a view read, redirected by ${code} to another origin, follows there without the token`, async () => {
      target = 'other';
      status = code;
      const view = await client().readView('101', '5');
      assert.deepEqual(view.rows, []);
      assert.equal(other.seen.length, 1);
      assert.deepEqual(leaked(other), []);
    });

    it(`a view read, redirected by ${code} on the same origin, follows with the token`, async () => {
      target = 'same';
      status = code;
      await client().readView('101', '5');
      assert.deepEqual(
        edge.seen.map((seen) => `${seen.method} ${seen.url}`),
        ['GET /api/v1/app/101/view/5', 'GET /moved/api/v1/app/101/view/5'],
      );
      assert.ok(edge.seen[1].everything.includes(`Bearer ${SECRETS.accessToken}`));
    });
  }

  for (const code of [307, 308] as const) {
    it(`a token call and a record write, redirected by ${code} on the same origin, are sent there with their body`, async () => {
      target = 'same';
      status = code;
      const tokens = await refresh({ ...common(), refreshToken: SECRETS.refreshToken });
      assert.equal(tokens.accessToken, 'new-access');
      await client().updateRecord('101', '7', { f1: 'value' });
      const moved = edge.seen.filter((seen) => seen.url.startsWith('/moved/'));
      assert.deepEqual(
        moved.map((seen) => seen.method),
        ['POST', 'PUT'],
      );
      assert.ok(moved[0].everything.includes(`refresh_token=${SECRETS.refreshToken}`));
      assert.ok(moved[1].everything.includes('f1=value'));
    });
  }
});
