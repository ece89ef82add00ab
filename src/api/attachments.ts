// Attachments on the wire: the upload as fetch's own multipart encoding (field attachment_file, with
// file name and content type), streamed in chunks so progress can be reported, and the download's file
// name from Content-Disposition.

const UPLOAD_CHUNK_BYTES = 64 * 1024;

export interface AttachmentUpload {
  fileName: string;
  contentType: string;
  content: Uint8Array;
}

export interface DownloadedAttachment {
  fileName: string | undefined;
  contentType: string | undefined;
  content: Uint8Array;
}

export interface AttachmentOptions {
  /** Bytes of the encoded multipart body handed to the connection so far, of the total. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  /** This upload's time limit, body included, instead of the client's (a large file on a slow link needs longer). */
  timeoutMs?: number;
}

/** Content-Disposition's file name: filename* (RFC 5987) wins over filename. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name || undefined;
}

/** Streams `bytes` in chunks and reports each chunk as the connection takes it. */
export async function* countingStream(bytes: Buffer, onProgress: (sent: number, total: number) => void): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length;) {
    const end = Math.min(offset + UPLOAD_CHUNK_BYTES, bytes.length);
    yield bytes.subarray(offset, end);
    offset = end;
    try {
      onProgress(offset, bytes.length);
    } catch {
      // A failing progress display must not fail the upload.
    }
  }
}

export async function encodeAttachment(file: AttachmentUpload): Promise<{ bytes: Buffer; contentType: string }> {
  // fetch's own multipart encoder; encoded up front so the upload can report its progress and a 401
  // retry can send the same bytes again.
  const data = new FormData();
  data.append('attachment_file', new Blob([file.content], { type: file.contentType }), file.fileName);
  const encoded = new Response(data);
  const contentType = encoded.headers.get('content-type');
  if (!contentType) throw new Error('fetch did not give the multipart body a content type');
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType };
}
