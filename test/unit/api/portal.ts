// The unit tests' old names for test/support (kept so that tests being written elsewhere still build):
// `testInterface` is `emulatorControl`. New tests import from test/support directly.
export * from '../../support/portal';
export { emulatorControl as testInterface } from '../../support/emulator';
