// The page of a panel: a strict Content-Security-Policy (no inline code but the nonce'd script, resources
// only from the extension's own folders), the panel's script and style, and an empty root the script fills.
// The toolkit's FAST base probes for :focus-visible support with a <style> element, which it marks with the
// nonce of <meta property="csp-nonce">: hence the nonce in style-src too (no 'unsafe-inline').
// Pure: the webview tests build the same page in Chromium.
import { randomBytes } from 'node:crypto';

export interface PanelPage {
  /** webview.cspSource: the origin the webview serves local resources from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  title: string;
}

export function createNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function panelHtml(page: PanelPage): string {
  const csp = contentSecurityPolicy(page.cspSource, page.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta property="csp-nonce" content="${escapeAttribute(page.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(page.styleUri)}">
<title>${escapeAttribute(page.title)}</title>
</head>
<body>
<main id="root"></main>
<script nonce="${escapeAttribute(page.nonce)}" src="${escapeAttribute(page.scriptUri)}"></script>
</body>
</html>
`;
}
