import { pinKey, type Pin } from '../../shared/pins.ts';
import { useDesigner } from '../designer/designerStore.ts';
import { useRuntimeState } from '../state/runtimeState.ts';

/** The open flow's id, or undefined while none is open. */
export const useOpenFlowId = (): string | undefined =>
  useDesigner((s) => (s.open ? s.meta.id : undefined));

/** The pin of one call trigger of a node of the open flow, if it has one. */
export function usePinOf(node: string | undefined, trigger: string): Pin | undefined {
  const flow = useOpenFlowId();
  return useRuntimeState((s) => {
    if (flow === undefined || node === undefined) return undefined;
    const key = pinKey({ flow, node, trigger });
    return s.pins.find((p) => pinKey(p) === key);
  });
}

/**
 * The ids of a node's pinned triggers, joined by newlines: a string, so a node renders only when
 * its own pins change, not on every read of the workspace's.
 */
export function usePinnedTriggers(node: string): string {
  const flow = useOpenFlowId();
  return useRuntimeState((s) =>
    s.pins
      .filter((p) => p.flow === flow && p.node === node)
      .map((p) => p.trigger)
      .join('\n'),
  );
}

/** The node the properties panel shows: the one selected node, if exactly one is selected. */
export const usePanelNode = (): string | undefined =>
  useDesigner((s) => {
    let only: string | undefined;
    for (const n of s.nodes) {
      if (!n.selected) continue;
      if (only !== undefined) return undefined;
      only = n.id;
    }
    return only;
  });
