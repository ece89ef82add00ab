// Files kept in memory for the session, one flat folder per authority and path prefix the owner chooses:
// the comment drafts (`portal-comment:`, writable) and the attachments opened in an editor
// (`portal-attachment:`, read-only). Nothing here reaches the disk or the portal.
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';

interface Entry {
  content: Uint8Array;
  readonly ctime: number;
  mtime: number;
}

export class MemoryFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Entry>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]> = this.changed.event;

  /** What the file holds now, or undefined. */
  peek(uri: vscode.Uri): Uint8Array | undefined {
    return this.files.get(uri.toString())?.content;
  }

  has(uri: vscode.Uri): boolean {
    return this.files.has(uri.toString());
  }

  /** Creates or replaces a file from the owner's side (writeFile is VS Code's side). */
  put(uri: vscode.Uri, content: Uint8Array): void {
    const key = uri.toString();
    const existing = this.files.get(key);
    const now = Date.now();
    this.files.set(key, { content, ctime: existing?.ctime ?? now, mtime: Math.max(now, (existing?.mtime ?? 0) + 1) });
    this.changed.fire([{ type: existing ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  remove(uri: vscode.Uri): void {
    if (this.files.delete(uri.toString())) this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  /** Every file's URI. */
  list(): vscode.Uri[] {
    return [...this.files.keys()].map((key) => vscode.Uri.parse(key));
  }

  // ---- vscode.FileSystemProvider ----

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.files.get(uri.toString());
    if (entry) return { type: vscode.FileType.File, ctime: entry.ctime, mtime: entry.mtime, size: entry.content.byteLength };
    if (this.isFolder(uri)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): Array<[string, vscode.FileType]> {
    const prefix = uri.toString().replace(/\/?$/, '/');
    return [...this.files.keys()]
      .filter((key) => key.startsWith(prefix) && !key.slice(prefix.length).includes('/'))
      .map((key) => [decodeURIComponent(key.slice(prefix.length)), vscode.FileType.File]);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.files.get(uri.toString());
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry.content;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    const exists = this.files.has(uri.toString());
    if (!exists && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (exists && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    this.put(uri, content);
  }

  delete(uri: vscode.Uri): void {
    if (!this.files.has(uri.toString())) throw vscode.FileSystemError.FileNotFound(uri);
    this.remove(uri);
  }

  createDirectory(): void {
    // Folders exist as long as a file is in them.
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('These files cannot be renamed.');
  }

  override dispose(): void {
    this.files.clear();
    super.dispose();
  }

  private isFolder(uri: vscode.Uri): boolean {
    const prefix = uri.toString().replace(/\/?$/, '/');
    return [...this.files.keys()].some((key) => key.startsWith(prefix));
  }
}
