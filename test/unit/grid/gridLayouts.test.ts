// The columns' layout each view's grid keeps in the workspace: per portal, app and view; a damaged entry
// is ignored rather than misread.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { GridLayouts } from '../../../src/grid/host/gridLayouts';

/** The little of a Memento the store uses, in memory, keeping what was stored as JSON (as VS Code does). */
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

describe('grid: the layouts kept per view', () => {
  const view = (viewId: string, portalId = 'demo') => ({ portalId, appId: '102', viewId });

  it('keeps a layout per portal, app and view, and hands it back as stored', async () => {
    const state = memento();
    const layouts = new GridLayouts(state);
    assert.equal(layouts.get(view('3')), undefined);
    await layouts.set(view('3'), { order: ['f11', 'f10'], hidden: ['f14'], frozen: 2 });
    await layouts.set(view('4'), { order: [], hidden: [], frozen: 0 });
    assert.deepEqual(layouts.get(view('3')), { order: ['f11', 'f10'], hidden: ['f14'], frozen: 2 });
    assert.deepEqual(layouts.get(view('4')), { order: [], hidden: [], frozen: 0 });
    assert.equal(layouts.get(view('3', 'staging')), undefined, 'another portal has its own');
    // A new store over the same state (VS Code started again) reads the same.
    assert.deepEqual(new GridLayouts(state).get(view('3')), { order: ['f11', 'f10'], hidden: ['f14'], frozen: 2 });
  });

  it('ignores a damaged entry', async () => {
    const state = memento();
    await state.update('portal.gridLayouts', {
      [JSON.stringify(['demo', '102', '3'])]: { order: 'f11', hidden: [], frozen: 1 },
      [JSON.stringify(['demo', '102', '4'])]: { order: [], hidden: [7], frozen: 0 },
    });
    const layouts = new GridLayouts(state);
    assert.equal(layouts.get(view('3')), undefined);
    assert.equal(layouts.get(view('4')), undefined);
  });
});
