// A view as a board (custom editor portal.board). Its document is the grid's (GridDocument): a card's move
// is a pending edit in the grid's change set, so the tab shows dirty, Ctrl+Z / Ctrl+Y walk VS Code's edit
// stack, Ctrl+S saves through the grid's conflict-checked save (Compare / Keep mine / Take theirs), and hot
// exit keeps the grid's backup. Opening, saving, reverting and backing up are the grid editor's; this
// provider only draws the board (boardPage.ts) and fires its own documents' edits.
import * as vscode from 'vscode';
import { chooseTitleField } from '../../catalog/titleField';
import type { Stores } from '../../catalog/stores';
import { BOARD_VIEW_TYPE } from '../../ids';
import { Disposable } from '../../lifecycle';
import { createLogger } from '../../log';
import type { BoardDefinition, BoardToHostMessage } from '../protocol';
import { runShownInPanel } from '../../ui/errorBoundary';
import { createNonce, panelHtml } from '../../webviews/html';
import { openRecord } from '../../webviews/openRecord';
import type { GridDocument } from '../../grid/host/gridDocument';
import type { GridEditorProvider } from '../../grid/host/gridEditor';
import { BoardDefinitions } from './boardDefinitions';
import { BoardPage, type BoardPageParts } from './boardPage';

const log = createLogger('board');

export type BoardEditorDeps = Pick<Stores, 'portals' | 'workspace' | 'titles'> & {
  readonly extensionUri: vscode.Uri;
  readonly state: vscode.Memento;
};

type DocumentChange = vscode.CustomDocumentEditEvent<GridDocument>;

export class BoardEditorProvider extends Disposable implements vscode.CustomEditorProvider<GridDocument> {
  private readonly changed = this._register(new vscode.EventEmitter<DocumentChange>());
  readonly onDidChangeCustomDocument = this.changed.event;
  private readonly definitions: BoardDefinitions;
  private readonly pages = new Set<BoardPage>();
  private readonly pageParts: BoardPageParts = {
    init: (document) => ({
      type: 'board/init',
      viewName: document.viewName,
      appName: document.appName,
      portalLabel: this.deps.portals.get(document.target.portalId)?.label ?? document.target.portalId,
      filterColumns: document.filterColumns,
      filters: document.filters,
      load: document.loadState,
    }),
    definition: (document) => this.definitions.get(document.target),
    saveDefinition: (document, definition) => this.saveDefinition(document, definition),
    titleField: (document) => {
      const shown = new Set(document.model.columns.map((column) => column.key));
      const columns = document.model.columns.flatMap((column) => (column.column ? [column.column] : []));
      return chooseTitleField(columns, this.deps.titles.get(document.target), shown)?.field_id_in_data;
    },
    handle: (page, message) => this.handle(page, message),
    ended: (page) => this.pages.delete(page),
  };

  constructor(
    private readonly deps: BoardEditorDeps,
    private readonly grids: GridEditorProvider,
  ) {
    super();
    this.definitions = new BoardDefinitions(deps.state, deps.workspace);
    this._register({ dispose: () => [...this.pages].forEach((page) => page.dispose()) });
  }

  /** The document of the open board tab at `uri` (the test API reaches a live board through it). */
  openDocument(uri: vscode.Uri): GridDocument | undefined {
    return [...this.pages].find((page) => page.document.uri.toString() === uri.toString())?.document;
  }

  openCustomDocument(uri: vscode.Uri, context: vscode.CustomDocumentOpenContext): Promise<GridDocument> {
    return this.grids.openGridDocument(uri, context, (event) => this.changed.fire(event));
  }

  resolveCustomEditor(document: GridDocument, panel: vscode.WebviewPanel): void {
    document.pageOpened();
    const webview = panel.webview;
    const dist = vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview');
    webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(this.deps.extensionUri, 'media')] };
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'board.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'board.css')).toString(),
      nonce: createNonce(),
      title: `${document.viewName} (board)`,
    });
    this.pages.add(new BoardPage(panel, document, this.pageParts));
  }

  private async saveDefinition(document: GridDocument, definition: BoardDefinition): Promise<void> {
    await this.definitions.set(document.target, definition);
    // Another tab of the view's board follows the definition chosen here.
    for (const page of this.pages) if (page.document === document) page.sendInit();
    log.info(`view ${document.target.viewId}: board by ${definition.column}${definition.lanes ? `, lanes by ${definition.lanes}` : ''}`);
  }

  /** What the board does as the grid does: the same document, the same commands. */
  private async handle(page: BoardPage, message: BoardToHostMessage): Promise<void> {
    const document = page.document;
    switch (message.type) {
      case 'board/save':
        await vscode.commands.executeCommand('workbench.action.files.save');
        return;
      case 'board/discard':
        return this.grids.discard(document);
      case 'board/resolve':
        return this.grids.resolve(document, message.recordId, message.action);
      case 'board/retry':
        return document.retry();
      case 'board/cancelLoad':
        return document.cancelLoad();
      case 'board/filter':
        // Said beside the filters, as the grid does; the board keeps the cards it had.
        await runShownInPanel(
          `${BOARD_VIEW_TYPE} board/filter`,
          () => document.runFilters(message.filters),
          (text) =>
            page.post({
              type: 'board/notice',
              level: 'error',
              message: `The filters could not be run: ${text} The board shows the cards it had.`,
            }),
        );
        return;
      case 'openRecord':
        await openRecord(document.target.portalId, document.target.appId, message.recordId);
        return;
      default:
        return;
    }
  }

  saveCustomDocument(document: GridDocument, token: vscode.CancellationToken): Promise<void> {
    return this.grids.saveCustomDocument(document, token);
  }

  saveCustomDocumentAs(): Promise<void> {
    return this.grids.saveCustomDocumentAs();
  }

  revertCustomDocument(document: GridDocument): Promise<void> {
    return this.grids.revertCustomDocument(document);
  }

  backupCustomDocument(document: GridDocument, context: vscode.CustomDocumentBackupContext): Promise<vscode.CustomDocumentBackup> {
    return this.grids.backupCustomDocument(document, context);
  }
}
