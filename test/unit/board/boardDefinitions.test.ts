// The board kept per view in the workspace: per portal, app and view; the workspace file's board when the
// user chose none; a damaged entry ignored rather than misread.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { BoardDefinitions } from '../../../src/board/host/boardDefinitions';
import type { SharedApp } from '../../../src/workspaceFile/model';

function memento(): vscode.Memento & { raw: Map<string, unknown> } {
  const raw = new Map<string, unknown>();
  return {
    raw,
    keys: () => [...raw.keys()],
    get: <T>(key: string, fallback?: T): T => (raw.has(key) ? (JSON.parse(JSON.stringify(raw.get(key))) as T) : (fallback as T)),
    update: async (key: string, value: unknown) => {
      raw.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    },
  } as vscode.Memento & { raw: Map<string, unknown> };
}

describe('board: the definitions kept per view', () => {
  const view = (viewId: string, portalId = 'demo') => ({ portalId, appId: '102', viewId });
  const shared: SharedApp = {
    appId: '102',
    views: [],
    queries: [],
    layouts: [],
    boards: [{ viewId: '3', column: 'f19', lanes: 'f22', fields: ['f17'] }],
  };

  it("keeps one per portal, app and view, and falls back to the workspace file's", async () => {
    const state = memento();
    const boards = new BoardDefinitions(state, { app: (portalId, appId) => (portalId === 'demo' && appId === '102' ? shared : undefined) });
    assert.deepEqual(boards.get(view('3')), { column: 'f19', lanes: 'f22', fields: ['f17'] }, "the team's board");
    assert.equal(boards.get(view('4')), undefined);
    await boards.set(view('3'), { column: 'f20', fields: [] });
    assert.deepEqual(boards.get(view('3')), { column: 'f20', fields: [] }, 'the choice made here wins');
    assert.equal(boards.get(view('3', 'other')), undefined);
  });

  it('ignores a damaged entry', () => {
    const state = memento();
    state.raw.set('portal.boards', { [JSON.stringify(['demo', '102', '5'])]: { column: '', fields: 'f1' } });
    assert.equal(new BoardDefinitions(state).get(view('5')), undefined);
  });
});
