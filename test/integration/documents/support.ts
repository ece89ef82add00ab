// What every documents suite starts from: the emulator as it was seeded, one portal connected (the
// emulator, with client credentials), no editor open.
import { resetEmulator } from '../support/emulator';
import { closeAllEditors } from '../support/documents';
import { connectEmulator, removeAllPortals } from '../support/portals';

/** Mocha hooks: a fresh emulator and connection per test; resolves the connection id through the getter. */
export function useConnectedPortal(): () => string {
  let id: string | undefined;
  beforeEach(async () => {
    await closeAllEditors();
    await resetEmulator();
    if (id === undefined) {
      await removeAllPortals();
      id = await connectEmulator();
    }
  });
  after(async () => {
    await closeAllEditors();
    await removeAllPortals();
    id = undefined;
  });
  return () => {
    if (id === undefined) throw new Error('useConnectedPortal(): no portal connected yet.');
    return id;
  };
}
