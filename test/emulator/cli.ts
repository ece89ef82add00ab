// The emulator's command line: one flag per option of startEmulator() (README.md, "Command line").
import { parseArgs } from 'node:util';
import type { EmulatorOptions } from './options';
import { OptionError } from './options';

export const USAGE = `Usage: npm run emulator -- [options]

  --port N                  port on 127.0.0.1 (default 0: any free port)
  --auto-approve            the authorize endpoint redirects at once, without the approval page
  --token-lifetime S        access-token lifetime in seconds (default 3600)
  --code-lifetime S         authorization-code lifetime in seconds (default 600)
  --error-style STYLE       nested | flat | text (default nested)
  --write-response KIND     json | empty | text: what update, comment and attachment answer (default json)
  --no-column-required      leave "required" out of the list of columns
  --no-app-flags            leave "draft_mode" and "comments_plugin" out of the list of sites
  --webhook-retries N       retries of a failed webhook delivery (default 0)
  --webhook-timeout MS      time limit of one delivery attempt (default 5000)
  --attachment-limit BYTES  largest attachment (default 26214400)
  --big-view-records N      records of the Tickets app (default 100000)
  --seed N                  seed of the generated records (default 1)
  --latency MS              wait before answering every API and OAuth request (default 0)
  --bytes-per-second N      send response bodies at most this fast (default 0: no limit)
  --rate-limit N            API requests per second per client, beyond it 429 + Retry-After (default 0: none)
  --rate-burst N            requests at once above the rate (default 0: one second's worth)
  --max-in-flight N         API requests of one client at once, beyond it --over-limit-status (default 0: none)
  --over-limit-status S     what a request over --max-in-flight answers: 429 (default) or 503
  --client-id ID            the demo client's id
  --client-secret SECRET    the demo client's secret
  --redirect-uri URI        one more registered redirect URI of the demo client (repeatable)
  --quiet                   no request lines on stderr
  --help                    this text
`;

function whole(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new OptionError(`--${flag} needs a whole number, not "${value}".`);
  return Number(value);
}

/** Options from command-line arguments; throws OptionError on a bad or unknown flag. `help` asks for USAGE. */
export function parseCommandLine(args: string[]): { options: EmulatorOptions; help: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        'auto-approve': { type: 'boolean' },
        'token-lifetime': { type: 'string' },
        'code-lifetime': { type: 'string' },
        'error-style': { type: 'string' },
        'write-response': { type: 'string' },
        'no-column-required': { type: 'boolean' },
        'no-app-flags': { type: 'boolean' },
        'webhook-retries': { type: 'string' },
        'webhook-timeout': { type: 'string' },
        'attachment-limit': { type: 'string' },
        'big-view-records': { type: 'string' },
        seed: { type: 'string' },
        latency: { type: 'string' },
        'bytes-per-second': { type: 'string' },
        'rate-limit': { type: 'string' },
        'rate-burst': { type: 'string' },
        'max-in-flight': { type: 'string' },
        'over-limit-status': { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        quiet: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new OptionError(error instanceof Error ? error.message : String(error));
  }
  const options: EmulatorOptions = {
    port: whole('port', values.port),
    autoApprove: values['auto-approve'],
    tokenLifetimeSeconds: whole('token-lifetime', values['token-lifetime']),
    codeLifetimeSeconds: whole('code-lifetime', values['code-lifetime']),
    errorStyle: values['error-style'] as EmulatorOptions['errorStyle'],
    writeResponse: values['write-response'] as EmulatorOptions['writeResponse'],
    columnRequired: values['no-column-required'] ? false : undefined,
    appFlags: values['no-app-flags'] ? false : undefined,
    webhookRetries: whole('webhook-retries', values['webhook-retries']),
    webhookTimeoutMs: whole('webhook-timeout', values['webhook-timeout']),
    attachmentLimitBytes: whole('attachment-limit', values['attachment-limit']),
    bigViewRecords: whole('big-view-records', values['big-view-records']),
    seed: whole('seed', values.seed),
    latencyMs: whole('latency', values.latency),
    bytesPerSecond: whole('bytes-per-second', values['bytes-per-second']),
    rateLimit: whole('rate-limit', values['rate-limit']),
    rateBurst: whole('rate-burst', values['rate-burst']),
    maxInFlight: whole('max-in-flight', values['max-in-flight']),
    overLimitStatus: whole('over-limit-status', values['over-limit-status']) as EmulatorOptions['overLimitStatus'],
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
    redirectUris: values['redirect-uri'],
    quiet: values.quiet,
  };
  return { options, help: values.help === true };
}
