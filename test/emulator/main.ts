// `npm run emulator -- --port N [--auto-approve] ...`: runs the emulator in the foreground with the seed.
// The first line on stdout is one JSON object (base_url, client_id, client_secret, redirect_uri, views);
// request lines go to stderr. Ctrl+C or SIGTERM closes it and exits 0.
import { parseCommandLine, USAGE } from './cli';
import { OptionError, startEmulator } from './index';

async function main(): Promise<void> {
  const { options, help } = parseCommandLine(process.argv.slice(2));
  if (help) {
    process.stdout.write(USAGE);
    return;
  }
  const emulator = await startEmulator(options);
  const { baseUrl, clientId, clientSecret, redirectUri, views } = emulator;
  process.stdout.write(
    `${JSON.stringify({ base_url: baseUrl, client_id: clientId, client_secret: clientSecret, redirect_uri: redirectUri, views })}\n`,
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    if (!options.quiet) process.stderr.write(`[emulator] ${signal}: closing\n`);
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`[emulator] closing failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error && !(error instanceof OptionError) ? (error.stack ?? error.message) : String(error instanceof Error ? error.message : error)}\n`,
  );
  if (error instanceof OptionError) process.stderr.write(`\n${USAGE}`);
  process.exit(2);
});
