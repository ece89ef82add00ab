// Stand-ins registered at activation for providers built on first use (src/lazy.ts): a file system, a
// tree's data, a tree's drop target. Each hands VS Code's calls to the real provider, which the first call
// that needs it builds, and passes on the real provider's change events from the moment it exists.
import * as vscode from 'vscode';
import type { Lazy } from './lazy';
import { Disposable } from './lifecycle';

/** The real provider among the parts `P` built on first use. */
type Pick<P, T> = (parts: P) => T;

/**
 * A stand-in's change event (`relayed`): quiet until the real provider exists, then the real one's events,
 * passed on through `subscribe` (which listens to the real provider and hands each event to `fire`).
 */
abstract class Relay<P, E> extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<E>());
  protected readonly relayed: vscode.Event<E> = this.emitter.event;

  constructor(parts: Lazy<P>, subscribe: (loaded: P, fire: (event: E) => void) => vscode.Disposable | undefined) {
    super();
    parts.onLoad((loaded) => {
      const subscription = subscribe(loaded, (event) => this.emitter.fire(event));
      if (subscription) this._register(subscription);
    });
  }
}

export class LazyFileSystemProvider<P> extends Relay<P, vscode.FileChangeEvent[]> implements vscode.FileSystemProvider {
  readonly onDidChangeFile = this.relayed;

  constructor(
    private readonly parts: Lazy<P>,
    private readonly pick: Pick<P, vscode.FileSystemProvider>,
  ) {
    super(parts, (loaded, fire) => pick(loaded).onDidChangeFile(fire));
  }

  watch(uri: vscode.Uri, options: { readonly recursive: boolean; readonly excludes: readonly string[] }): vscode.Disposable {
    const built = this.parts.peek();
    if (built) return this.pick(built).watch(uri, options);
    // Asked to watch before anything was read: watch once the provider exists, unless disposed by then.
    let disposed = false;
    let watching: vscode.Disposable | undefined;
    this.parts.onLoad((loaded) => {
      if (!disposed) watching = this.pick(loaded).watch(uri, options);
    });
    return new vscode.Disposable(() => {
      disposed = true;
      watching?.dispose();
    });
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return (await this.real()).stat(uri);
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    return (await this.real()).readDirectory(uri);
  }

  async createDirectory(uri: vscode.Uri): Promise<void> {
    return (await this.real()).createDirectory(uri);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.real()).readFile(uri);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    return (await this.real()).writeFile(uri, content, options);
  }

  async delete(uri: vscode.Uri, options: { readonly recursive: boolean }): Promise<void> {
    return (await this.real()).delete(uri, options);
  }

  async rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    return (await this.real()).rename(oldUri, newUri, options);
  }

  private async real(): Promise<vscode.FileSystemProvider> {
    return this.pick(await this.parts.get());
  }
}

/** What changed in a tree: elements, or (undefined) the whole tree. */
type TreeChange<T> = T | T[] | undefined;

export class LazyTreeDataProvider<P, T> extends Relay<P, TreeChange<T>> implements vscode.TreeDataProvider<T> {
  readonly onDidChangeTreeData = this.relayed;

  constructor(
    private readonly parts: Lazy<P>,
    private readonly pick: Pick<P, vscode.TreeDataProvider<T>>,
  ) {
    super(parts, (loaded, fire) => pick(loaded).onDidChangeTreeData?.((change) => fire(change ?? undefined)));
  }

  async getChildren(element?: T): Promise<T[]> {
    return (await this.pick(await this.parts.get()).getChildren(element)) ?? [];
  }

  // Elements come from getChildren (or from a reveal of one it gave), so the real provider exists.
  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.built().getTreeItem(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.built().getParent?.(element);
  }

  private built(): vscode.TreeDataProvider<T> {
    const built = this.parts.peek();
    if (!built) throw new Error('A tree element was asked for before its view was built.');
    return this.pick(built);
  }
}

export class LazyDropController<P, T> implements vscode.TreeDragAndDropController<T> {
  readonly dragMimeTypes: readonly string[] = [];

  constructor(
    private readonly parts: Lazy<P>,
    private readonly pick: Pick<P, vscode.TreeDragAndDropController<T>>,
    /** The real controller's dropMimeTypes: VS Code reads them when the tree view is created. */
    readonly dropMimeTypes: readonly string[],
  ) {}

  async handleDrop(target: T | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    await this.pick(await this.parts.get()).handleDrop?.(target, dataTransfer, token);
  }
}

type CustomDocumentChange<D extends vscode.CustomDocument> = vscode.CustomDocumentEditEvent<D> | vscode.CustomDocumentContentChangeEvent<D>;

/** A custom editor (the view grid): VS Code may open one at start-up, restoring a tab, before anything is built. */
export class LazyCustomEditorProvider<P, D extends vscode.CustomDocument>
  extends Relay<P, CustomDocumentChange<D>>
  implements vscode.CustomEditorProvider<D>
{
  readonly onDidChangeCustomDocument = this.relayed;

  constructor(
    private readonly parts: Lazy<P>,
    private readonly pick: Pick<P, vscode.CustomEditorProvider<D>>,
  ) {
    super(parts, (loaded, fire) => pick(loaded).onDidChangeCustomDocument(fire));
  }

  async openCustomDocument(uri: vscode.Uri, context: vscode.CustomDocumentOpenContext, token: vscode.CancellationToken): Promise<D> {
    return (await this.real()).openCustomDocument(uri, context, token);
  }

  async resolveCustomEditor(document: D, panel: vscode.WebviewPanel, token: vscode.CancellationToken): Promise<void> {
    return (await this.real()).resolveCustomEditor(document, panel, token);
  }

  async saveCustomDocument(document: D, token: vscode.CancellationToken): Promise<void> {
    return (await this.real()).saveCustomDocument(document, token);
  }

  async saveCustomDocumentAs(document: D, destination: vscode.Uri, token: vscode.CancellationToken): Promise<void> {
    return (await this.real()).saveCustomDocumentAs(document, destination, token);
  }

  async revertCustomDocument(document: D, token: vscode.CancellationToken): Promise<void> {
    return (await this.real()).revertCustomDocument(document, token);
  }

  async backupCustomDocument(
    document: D,
    context: vscode.CustomDocumentBackupContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.CustomDocumentBackup> {
    return (await this.real()).backupCustomDocument(document, context, token);
  }

  private async real(): Promise<vscode.CustomEditorProvider<D>> {
    return this.pick(await this.parts.get());
  }
}
