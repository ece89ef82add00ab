// One way for a part to own what it creates (listeners, emitters, providers): it registers each, and they
// are disposed once, with the part, the last registered first. No `vscode` import: anything with a
// dispose() is owned alike, so plain-node parts use it too.
export interface DisposableLike {
  dispose(): unknown;
}

export abstract class Disposable implements DisposableLike {
  private readonly owned: DisposableLike[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Owns `value`; registered after the part was disposed, it is disposed at once. */
  protected _register<T extends DisposableLike>(value: T): T {
    if (this.disposed) value.dispose();
    else this.owned.push(value);
    return value;
  }

  protected _registerAll(...values: DisposableLike[]): void {
    for (const value of values) this._register(value);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const value of this.owned.splice(0).reverse()) value.dispose();
  }
}
