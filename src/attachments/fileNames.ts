// File names and sizes as the attachments show them. Pure: unit-tested in plain node.

/**
 * A portal's file name made safe to propose in a save dialog or to use as the last segment of a URI: no
 * folders (both kinds of separator), no control characters, none of the characters Windows refuses, not
 * "." or "..", no invisible format characters (a bidi override makes "invoice\u202Efdp.exe" read as
 * "invoiceexe.pdf"), not a name Windows reserves for a device (CON, NUL, COM1.txt…: such a file cannot be
 * written there, or writes to the device), at most 200 characters with the extension kept. Empty after
 * that: `fallback`.
 */
/** Device names Windows reserves, alone or before any extension, in any case. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\.|$)/i;

export function safeFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  let safe = base.replace(/[\u0000-\u001f\u007f<>:"|?*\p{Cf}\u2028\u2029]/gu, '_').trim();
  safe = safe.replace(/^\.+$/, '').replace(/[. ]+$/, '');
  if (WINDOWS_DEVICE.test(safe)) safe = `_${safe}`;
  if (safe.length > 200) {
    const dot = safe.lastIndexOf('.');
    const extension = dot > 0 && safe.length - dot <= 16 ? safe.slice(dot) : '';
    safe = safe.slice(0, 200 - extension.length) + extension;
  }
  return safe === '' ? fallback : safe;
}

/** 512 bytes, 300 KB, 25 MB, 1.5 GB (binary multiples, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${units[unit]}`;
}
