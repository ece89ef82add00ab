// What the pages of both editors of a view's document (the grid, and the board on the grid's model) have
// alike: the title, the counts line with Cancel while the rows arrive, the notice bar with Retry when
// they are partial or could not be read, the filter builder, Save and Discard, a conflict's three
// answers. Each page adds its own parts and says how it counts.
import type {
  EditorLoadFailedMessage,
  EditorLoadMessage,
  EditorNoticeMessage,
  EditorToHostMessage,
  GridLoadState,
} from '../../src/grid/protocol';
import type { ViewFilter } from '../../src/shared/protocol';
import { filterBar as filterBarOf } from '../viewQuery/filterBar';
import { button } from './button';
import { el } from './dom';
import type { MessageAction } from './messageBar';
import { messageBar } from './messageBar';

export interface EditorPageOptions<P extends 'grid' | 'board'> {
  prefix: P;
  post(message: EditorToHostMessage<P>): void;
  /** What the page shows the rows as: 'rows', 'cards'. */
  items: string;
  /** Save's and the filter builder's Run's titles. */
  saveTitle: string;
  runTitle: string;
  /** Redraws the counts line from `load` and the page's own counts. */
  showCounts(): void;
  /** After the load's state changed (the page's own parts that wait for the rows). */
  loaded?(load: GridLoadState): void;
}

export type EditorPage = ReturnType<typeof editorPage>;

export function editorPage<P extends 'grid' | 'board'>(options: EditorPageOptions<P>) {
  const { prefix, post } = options;
  const title = el('h1', { text: 'View' });
  const subtitle = el('p', { className: 'subtitle' });
  const counts = el('p', { id: `${prefix}-counts`, className: 'row-count', attrs: { role: 'status', 'aria-live': 'polite' } });
  const notice = messageBar(`${prefix}-notice`);
  /** How far the view's rows have arrived (init, load). */
  let load: GridLoadState = { state: 'done', count: 0 };
  /** The notice says the rows are partial (and offers Retry). */
  let partialShown = false;
  // While the rows arrive: stops reading; the rows read stay, marked partial.
  const cancelLoad = button('Cancel', {
    id: `${prefix}-cancel-load`,
    title: `Stop reading the view: the ${options.items} read so far stay`,
    onClick: () => post({ type: `${prefix}/cancelLoad` }),
  });
  cancelLoad.hidden = true;
  const countsLine = el('div', { className: 'row-count-line' }, counts, cancelLoad);

  // The Query View's filter builder, above the editor: Run reads the view again with its filters (the same
  // encoding); the pending changes stay.
  const { element: filterBar, builder } = filterBarOf({
    prefix,
    runTitle: options.runTitle,
    invalid: () => notice.show('error', 'Some filters need attention before the view can be read again.'),
    run: (filters: ViewFilter[]) => {
      notice.hide();
      counts.textContent = 'Reading the view…';
      post({ type: `${prefix}/filter`, filters });
    },
  });

  const save = button('Save', {
    id: `${prefix}-save`,
    appearance: 'primary',
    title: options.saveTitle,
    onClick: () => post({ type: `${prefix}/save` }),
  });
  const discard = button('Discard…', {
    id: `${prefix}-discard`,
    title: 'Discard every pending change: the view is read again from the portal (File › Revert)',
    onClick: () => post({ type: `${prefix}/discard` }),
  });

  /** Reads the view again: after its rows could not be read, or were read partially. */
  const retry: MessageAction = { id: `${prefix}-retry`, label: 'Retry', run: () => post({ type: `${prefix}/retry` }) };

  /** The loading line and what waits for the rows: Cancel while they arrive, Retry when they are partial. */
  function applyLoad(next: GridLoadState): void {
    load = next;
    cancelLoad.hidden = load.state !== 'loading';
    options.loaded?.(load);
    if (load.state === 'partial') counts.dataset.partial = '';
    else delete counts.dataset.partial;
    if (load.state === 'partial') {
      partialShown = true;
      notice.show('info', `Partial: ${load.message ?? `only ${load.count.toLocaleString()} rows were read.`}`, [retry]);
    } else if (partialShown) {
      partialShown = false;
      notice.hide();
    }
    options.showCounts();
  }

  return {
    title,
    subtitle,
    counts,
    notice,
    countsLine,
    filterBar,
    builder,
    save,
    discard,
    load: (): GridLoadState => load,
    applyLoad,
    /** Compare / Keep Mine / Take Theirs for a row's (a card's) conflict held back at save. */
    resolveActions(recordId: string): MessageAction[] {
      const resolve = (action: 'compare' | 'keepMine' | 'takeTheirs') => () => post({ type: `${prefix}/resolve`, recordId, action });
      return [
        { label: 'Compare', id: `${prefix}-compare`, run: resolve('compare') },
        { label: 'Keep Mine', id: `${prefix}-keep-mine`, run: resolve('keepMine') },
        { label: 'Take Theirs', id: `${prefix}-take-theirs`, run: resolve('takeTheirs') },
      ];
    },
    /**
     * The host's messages every editor's page takes alike: how far the rows are, a notice (it takes the
     * bar the partial rows had, Retry stays within reach), a failed read. False for the page's own.
     */
    receive(message: { type: string }): boolean {
      switch (message.type.slice(prefix.length + 1)) {
        case 'load':
          applyLoad((message as EditorLoadMessage<P>).load);
          return true;
        case 'notice': {
          const { level, message: text } = message as EditorNoticeMessage<P>;
          partialShown = false;
          notice.show(level, text, load.state === 'partial' ? [retry] : undefined);
          // A filter run that failed left "Reading the view…" in the counts line; the rows shown are as before.
          options.showCounts();
          return true;
        }
        case 'loadFailed':
          notice.show('error', (message as EditorLoadFailedMessage<P>).message, [retry]);
          return true;
        default:
          return false;
      }
    },
    /** Draws the page: the bar with the view's name and `actions`, then `parts` in this order. */
    mount(actions: HTMLElement, ...parts: HTMLElement[]): void {
      document
        .getElementById('root')
        ?.append(el('header', { className: 'editor-header-bar' }, el('div', {}, title, subtitle), actions), ...parts);
    },
  };
}
