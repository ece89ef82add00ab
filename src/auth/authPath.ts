// The path of the extension's sign-in link, <scheme>://portal-labs.portal-explorer/auth.
export const AUTH_PATH = '/auth';
