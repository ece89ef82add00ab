// The content type of a file sent as an attachment, from its name's extension. A short table of the files
// people attach to records beats a MIME database in the bundle (the portal keeps whatever type it is
// told); anything else goes as application/octet-stream. Also whether a downloaded type can be shown.
// Pure: unit-tested in plain node.

const BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  xml: 'text/xml',
  json: 'application/json',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  eml: 'message/rfc822',
};

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

export function contentTypeOf(fileName: string): string {
  return BY_EXTENSION[extensionOf(fileName)] ?? DEFAULT_CONTENT_TYPE;
}

/** The type without parameters, lower case: "Text/Plain; charset=utf-8" -> "text/plain". */
function essence(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * How an attachment can be shown in VS Code: as text in an editor, as an image in the image preview, or
 * not at all (saved to a file instead). A portal that says octet-stream is judged by the file name.
 */
export function viewerOf(contentType: string | undefined, fileName: string): 'text' | 'image' | undefined {
  let type = essence(contentType);
  if (type === '' || type === DEFAULT_CONTENT_TYPE) type = contentTypeOf(fileName);
  if (type.startsWith('image/')) return type === 'image/x-icon' ? undefined : 'image';
  if (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type.endsWith('+xml') ||
    type === 'application/xml'
  )
    return 'text';
  return undefined;
}
