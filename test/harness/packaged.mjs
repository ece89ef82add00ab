// The packaged extension for the harness and the bench: the .vsix as `npm run package` makes it, the
// pre-configured portal file the extension reads (PORTAL_EXPLORER_CONNECTION_FILE), and the empty
// stand-in extension beside which the workbench runs extension tests.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './config.mjs';
import { runCommand } from './processes.mjs';

/** `npm run package`, as a user or CI would; resolves with the .vsix it wrote. */
export async function packageVsix() {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const vsix = join(ROOT, 'dist', `${name}-${version}.vsix`);
  rmSync(vsix, { force: true });
  await runCommand('npm', ['run', '--silent', 'package'], { cwd: ROOT, minutes: 5, quiet: true });
  if (!existsSync(vsix)) throw new Error(`npm run package did not write ${vsix}.`);
  return vsix;
}

/** An extension with nothing in it, to stand as the one under development while the .vsix is tested. */
export function writeRunnerExtension(profile) {
  const dir = join(profile.dir, 'packaged-test-runner');
  mkdirSync(dir, { recursive: true });
  const manifest = { name: 'packaged-test-runner', publisher: 'portal-explorer-tests', version: '0.0.0', engines: { vscode: '*' } };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return dir;
}

/** The emulator as the pre-configured portal (test/README.md, "Trying it: npm start"), read by the extension on activation. */
export function writeConnectionFile(profile, info) {
  const file = join(profile.userData, 'portal-connection.json');
  const connection = {
    label: 'Demo portal',
    baseUrl: info.base_url,
    clientId: info.client_id,
    clientSecret: info.client_secret,
    flow: 'clientCredentials',
  };
  writeFileSync(file, `${JSON.stringify(connection, null, 2)}\n`, { mode: 0o600 });
  return file;
}
