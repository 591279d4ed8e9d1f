import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Flow } from '../../shared/schema.ts';
import { onNodesChange, openFlow } from '../designer/designerStore.ts';
import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';
import { createWorkbench, type WorkbenchParts } from '../shell/WorkbenchProvider.tsx';

const flow: Flow = {
  format: 'flow/1',
  id: 'f',
  nodes: [{ id: 'start', kind: 'start', position: { x: 0, y: 0 } }],
  edges: [],
} as Flow;

let parts: WorkbenchParts;
const move = (x: number, dragging: boolean) =>
  onNodesChange(parts.designer, [
    { type: 'position', id: 'start', position: { x, y: 0 }, dragging },
  ]);

describe('autosave', () => {
  const saved: Flow[] = [];
  let stop: () => void = () => {};

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('window', new EventTarget());
    saved.length = 0;
    const saveFlow = async (f: Flow) => void saved.push(f);
    parts = createWorkbench();
    parts.connection.opened({ saveFlow } as unknown as WorkbenchRuntime);
    openFlow(parts.designer, flow);
    stop = parts.workspace.startAutosave(250);
  });

  afterEach(() => {
    stop();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('saves a drag once, when it ends, however long the pointer pauses during it', async () => {
    move(20, true);
    await vi.advanceTimersByTimeAsync(1000);
    move(40, true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual([]);

    move(40, false);
    await vi.advanceTimersByTimeAsync(250);

    expect(saved.map((f) => f.nodes[0]?.position)).toEqual([{ x: 40, y: 0 }]);
  });

  it('a move that is not a drag is saved a moment after it', async () => {
    move(60, false);
    await vi.advanceTimersByTimeAsync(250);

    expect(saved.map((f) => f.nodes[0]?.position)).toEqual([{ x: 60, y: 0 }]);
  });
});
