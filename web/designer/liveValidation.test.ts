import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Flow } from '../../shared/schema.ts';
import { createDesignerStore, openFlow, type DesignerStore } from './designerStore.ts';
import { startLiveValidation } from './validation.ts';

// A flow with no start node: validation has one problem to report.
const noStart: Flow = {
  format: 'flow/1',
  id: 'f',
  nodes: [{ id: 'end', kind: 'end', position: { x: 0, y: 0 } }],
  edges: [],
} as Flow;

// Loading the checks transforms JSONata and RE2 on first use: a guard against a hang, not a budget.
const LOADED = { timeout: 60_000 };

describe('live validation, its checks loaded on demand', () => {
  let stop: () => void = () => {};
  let store: DesignerStore;
  beforeEach(() => (store = createDesignerStore()));
  afterEach(() => stop());

  it('an opened flow is "not checked" until the checks have loaded and run, then has its problems', async () => {
    openFlow(store, noStart);
    expect(store.getState().checked).toBe(false);

    stop = startLiveValidation(store, () => new Map());
    expect(store.getState().problems).toEqual([]);

    await vi.waitFor(() => expect(store.getState().checked).toBe(true), LOADED);
    expect(store.getState().problems.map((p) => p.rule)).toContain('start-count');
  });

  it('opening another flow makes it unchecked again until validation has run on it', async () => {
    openFlow(store, noStart);
    stop = startLiveValidation(store, () => new Map(), 0);
    await vi.waitFor(() => expect(store.getState().checked).toBe(true), LOADED);

    openFlow(store, { ...noStart, id: 'g' });
    expect(store.getState().checked).toBe(false);
    await vi.waitFor(() => expect(store.getState().checked).toBe(true), LOADED);
  });
});
