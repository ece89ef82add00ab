// A part built on first use: activation registers what VS Code must know of at once (commands, views, file
// systems) and builds what does the work when it is first needed. `get()` builds it once (later calls share
// the same promise); `onLoad` lets a stand-in hook onto it the moment it exists, whoever asked for it.
export class Lazy<T> {
  private loading: Promise<T> | undefined;
  private value: { readonly current: T } | undefined;
  private readonly listeners: Array<(value: T) => void> = [];

  constructor(private readonly load: () => Promise<T>) {}

  /** Builds the part on the first call; a build that failed stays failed (its error is every caller's). */
  get(): Promise<T> {
    this.loading ??= this.load().then((current) => {
      this.value = { current };
      for (const listener of this.listeners.splice(0)) listener(current);
      return current;
    });
    return this.loading;
  }

  /** The part if it is built, without building it. */
  peek(): T | undefined {
    return this.value?.current;
  }

  /** Calls `listener` when the part is built (at once if it is), before get() resolves for anyone. */
  onLoad(listener: (value: T) => void): void {
    if (this.value) listener(this.value.current);
    else this.listeners.push(listener);
  }
}
