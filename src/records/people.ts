// "Me" and USER columns, without `vscode`. A USER cell holds a comma-separated list of e-mail addresses (the
// portal's API); the portal's API has no "who am I", so the user's own address per portal comes from the
// `portal.me.email` setting (catalog/me.ts asks for it once). Addresses compare without case: mail systems
// treat the domain so, and users type their local part both ways.

/** The key `portal.me.email` uses for a portal: its base URL without a trailing slash. */
export function portalKey(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** The address set for this portal, if any. */
export function myEmail(byPortal: Readonly<Record<string, string>>, baseUrl: string): string | undefined {
  const key = portalKey(baseUrl);
  for (const [candidate, email] of Object.entries(byPortal)) if (portalKey(candidate) === key) return email;
  return undefined;
}

/** The addresses a USER cell holds (empty for an empty or missing cell). */
export function usersIn(cell: unknown): string[] {
  if (typeof cell !== 'string') return [];
  return cell
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** Whether a USER cell names `email`. */
export function holdsUser(cell: unknown, email: string): boolean {
  const wanted = email.trim().toLowerCase();
  return usersIn(cell).some((user) => user.toLowerCase() === wanted);
}

/** The USER cell with `email` added (unchanged when it is there already). */
export function withUser(cell: unknown, email: string): string {
  const users = usersIn(cell);
  return holdsUser(cell, email) ? users.join(',') : [...users, email.trim()].join(',');
}
