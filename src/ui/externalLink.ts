// Opening a link in the user's browser exactly as written. In VS Code for the web (code-server) the
// extension host and the browser are different machines as far as VS Code knows, so the workbench
// forwards a link to localhost / 127.0.0.1 through the host (code-server: /proxy/<port>/). It rebuilds the
// forwarded link from a decoded Uri (`encodeURI(uri.toString(true))`), which turns a query value holding
// its own query (an OAuth redirect_uri with `?…&…`) into `%253F…` and stray parameters. So the link's
// origin alone, which has no query to lose, is resolved with asExternalUri, and the path and query are
// put back as written: the workbench then gets a link it has nothing left to rewrite.
import * as vscode from 'vscode';

/** The link the user's browser can reach for `link`, its path and query unchanged. */
export async function reachableLink(link: string): Promise<string> {
  // Desktop VS Code opens a local link as it is; a remote one is tunnelled by openExternal itself, and a
  // second resolution there could tunnel the tunnel.
  if (vscode.env.uiKind !== vscode.UIKind.Web) return link;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return link;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return link;
  const origin = vscode.Uri.parse(`${url.origin}/`);
  const external = await vscode.env.asExternalUri(origin);
  if (external.toString() === origin.toString()) return link;
  return `${external.toString(true).replace(/\/$/, '')}${url.pathname}${url.search}${url.hash}`;
}

/** Opens `target` in the user's browser; a string is opened exactly as written (see above). */
export async function openExternalLink(target: vscode.Uri | string): Promise<boolean> {
  if (typeof target !== 'string') return vscode.env.openExternal(target);
  // env.openExternal takes a string at run time (its typing says Uri) and then opens it untouched.
  return vscode.env.openExternal((await reachableLink(target)) as unknown as vscode.Uri);
}
