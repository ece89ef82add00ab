// Which portal a command is about, from its argument: a connection id, or an object that carries one
// (a tree item passes { connectionId } or { portalId }). Anything else means "ask".
export function connectionIdArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg !== '') return arg;
  if (typeof arg === 'object' && arg !== null) {
    const { connectionId, portalId } = arg as { connectionId?: unknown; portalId?: unknown };
    if (typeof connectionId === 'string') return connectionId;
    if (typeof portalId === 'string') return portalId;
  }
  return undefined;
}
