// The portal emulator of this run, started by the harness (test/harness/emulator.mjs) and handed to the
// extension host in the environment variable PORTAL_EMULATOR: the JSON line the emulator printed.

export interface EmulatorInfo {
  /** http://127.0.0.1:<port> */
  base_url: string;
  client_id: string;
  client_secret: string;
  redirect_uri: string;
  views: unknown[];
}

/** This run's emulator; throws a clear error when the harness started none. */
export function emulator(): EmulatorInfo {
  const raw = process.env.PORTAL_EMULATOR;
  if (!raw) throw new Error('No emulator in this run: PORTAL_EMULATOR is not set (the harness sets it when out/test/emulator/main.js is built).');
  return JSON.parse(raw) as EmulatorInfo;
}
