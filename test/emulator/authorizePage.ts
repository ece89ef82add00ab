// The HTML of the authorize endpoint: the approval page (Approve / Deny) and the page that refuses a bad
// authorization request. Element ids (approve, deny, error) are stable for tests that drive a browser.

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const page = (title: string, body: string): string => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; color: #1f2328; }
  .card { border: 1px solid #d0d7de; border-radius: 8px; padding: 1.5rem; }
  button { font: inherit; padding: 0.5rem 1.25rem; border-radius: 6px; border: 1px solid #d0d7de; cursor: pointer; }
  #approve { background: #1f883d; color: white; border-color: #1f883d; }
  code { background: #f6f8fa; padding: 0.1rem 0.3rem; border-radius: 4px; }
</style>
</head>
<body><div class="card">
${body}
</div></body>
</html>
`;

export function approvalPage(clientName: string, redirectUri: string, requestId: string): string {
  return page(
    'Authorize access to the portal',
    `<h1>Authorize ${escape(clientName)}</h1>
<p><strong>${escape(clientName)}</strong> asks to read and change the records of your portal on your behalf.</p>
<p>You will be sent back to <code>${escape(redirectUri)}</code>.</p>
<form method="post" action="authorize">
  <input type="hidden" name="request_id" value="${escape(requestId)}">
  <button type="submit" id="approve" name="decision" value="approve">Approve</button>
  <button type="submit" id="deny" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function refusalPage(code: string, message: string): string {
  return page(
    'Authorization request refused',
    `<h1>Authorization request refused</h1>
<p id="error" data-error="${escape(code)}"><code>${escape(code)}</code>: ${escape(message)}</p>
<p>Nothing was sent back to the application.</p>`,
  );
}

/** The emulator's own call-back page (the demo client's redirect_uri): shows what arrived. */
export function callbackPage(query: Record<string, string>): string {
  const rows = Object.entries(query)
    .map(([name, value]) => `<tr><th>${escape(name)}</th><td><code id="${escape(name)}">${escape(value)}</code></td></tr>`)
    .join('\n');
  return page('Authorization result', `<h1>Authorization result</h1>\n<table>\n${rows}\n</table>`);
}
