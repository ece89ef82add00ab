// Open in Portal: the portal's own web page for a record or view, from the portal's URL template in the
// workspace file ("webUrlTemplate": "{baseUrl}/app/{appId}/record/{recordId}"). Each id is URL-encoded
// into its place; a page outside http(s) is never opened.

export interface WebUrlTarget {
  readonly baseUrl: string;
  readonly appId: string;
  readonly viewId?: string;
  readonly recordId?: string;
}

export const HOW_TO_SET_TEMPLATE =
  'Add "webUrlTemplate" to the portal in .vscode/portal.json, e.g. "{baseUrl}/app/{appId}/view/{viewId}/record/{recordId}" (placeholders: {baseUrl}, {appId}, {viewId}, {recordId}).';

/** The page's address; throws an Error that says what the template lacks. */
export function expandWebUrl(template: string, target: WebUrlTarget): string {
  const values: Record<string, string | undefined> = { appId: target.appId, viewId: target.viewId, recordId: target.recordId };
  const text = template.replace(/\{(baseUrl|appId|viewId|recordId)\}/g, (_match, key: string) => {
    if (key === 'baseUrl') return target.baseUrl.replace(/\/+$/, '');
    const value = values[key];
    if (value === undefined)
      throw new Error(
        `The portal's web page template needs {${key}}, which ${target.recordId === undefined ? 'a view' : 'this record'} does not have: ${HOW_TO_SET_TEMPLATE}`,
      );
    return encodeURIComponent(value);
  });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`The portal's web page template gives "${text}", which is not an address. ${HOW_TO_SET_TEMPLATE}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`The portal's web page template gives a ${url.protocol} address; only http(s) pages open. ${HOW_TO_SET_TEMPLATE}`);
  return url.href;
}
