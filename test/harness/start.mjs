// `npm start [-- --port N]`: a VS Code in the browser with Portal Explorer installed and the portal
// emulator (demo data) beside it. Installs what is missing, builds, starts both on 127.0.0.1, prints the
// address to open and the emulator's credentials, and runs until Ctrl+C, which stops both.
import { join } from 'node:path';
import { RESULTS } from './config.mjs';
import { startCodeServer } from './codeServer.mjs';
import { demoEmulatorArgs, demoProfile, linkExtension, removeDemoProfile, writeDemoConnection, writeDemoWorkspaceFile } from './demo.mjs';
import { startEmulator } from './emulator.mjs';
import { freePort, portIsFree, stopAll, stopAllOnSignals, stopping } from './processes.mjs';
import { setup, SetupError } from './setup.mjs';
import { build, ensureDependencies } from './steps.mjs';

const DEFAULT_PORT = 8080;

function requestedPort(args) {
  const index = args.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  if (index < 0) return undefined;
  const raw = args[index].includes('=') ? args[index].split('=')[1] : args[index + 1];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new SetupError(`--port needs a port number (1-65535), not "${raw ?? ''}".`);
  return port;
}

async function choosePort(args) {
  const wanted = requestedPort(args);
  if (wanted !== undefined) {
    if (!(await portIsFree(wanted)))
      throw new SetupError(`Port ${wanted} on 127.0.0.1 is in use; choose another with npm start -- --port N.`);
    return wanted;
  }
  return (await portIsFree(DEFAULT_PORT)) ? DEFAULT_PORT : freePort();
}

let profile;
async function cleanup() {
  await stopAll();
  removeDemoProfile(profile);
  profile = undefined;
}

async function main() {
  const args = process.argv.slice(2);
  const port = await choosePort(args);
  await ensureDependencies();
  await build();
  console.log('\n▶ Preparing code-server');
  await setup('start');

  const emulator = await startEmulator({ args: ['--quiet', ...demoEmulatorArgs()] });
  profile = demoProfile();
  linkExtension(profile);
  const connectionFile = writeDemoConnection(profile, emulator.info);
  writeDemoWorkspaceFile(profile.workspace, emulator.info);

  const server = await startCodeServer({
    port,
    profile,
    folder: profile.workspace,
    testing: false,
    logFile: join(RESULTS, 'logs', 'start-code-server.log'),
    env: { PORTAL_EMULATOR: JSON.stringify(emulator.info), PORTAL_EXPLORER_CONNECTION_FILE: connectionFile },
  });
  const { base_url, client_id, client_secret } = emulator.info;
  console.log(`
Portal Explorer is running in VS Code (code-server, with the extension installed).

  Open      http://127.0.0.1:${server.port}/

  Files     ${profile.workspace}
            (the workspace: kept after Ctrl+C; Export and Download propose it)

  Portal    ${base_url}   (the emulator, with demo data)
  Client    id ${client_id}
            secret ${client_secret}

Ctrl+C stops both.`);

  await new Promise((resolve) => {
    for (const [name, child] of [
      ['code-server', server.child],
      ['the emulator', emulator.child],
    ]) {
      child.once('exit', (code, signal) => {
        if (stopping()) return; // Ctrl+C: the signal handler stops everything and exits
        console.error(`\n✘ ${name} stopped (${signal ?? `exit code ${code}`}); stopping the rest.`);
        resolve();
      });
    }
  });
  await cleanup();
  process.exit(1);
}

stopAllOnSignals(
  async () => {
    await cleanup();
    console.error('Stopped.');
  },
  { message: 'Stopping code-server and the emulator ...', exitCode: 0 },
);
main().catch(async (error) => {
  console.error(`\n✘ ${error instanceof SetupError || error instanceof Error ? error.message : error}`);
  await cleanup();
  process.exit(1);
});
