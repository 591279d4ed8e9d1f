import type { Flow } from '../../shared/schema.ts';
import type { FlowNode } from '../../shared/schema.ts';
import { edgeAriaLabel, edgeTriggerKind } from './edgeLabel.ts';
import { analyzeLoops } from '../../shared/loops.ts';
import type { Problem } from '../../shared/validateFlow.ts';
import type { CanvasEdge, CanvasNode } from './canvasTypes.ts';
import {
  currentFlow,
  type ClosingEdge,
  type DesignerStore,
  type Drawing,
} from './designerStore.ts';
import { sameItems } from '../ui/useSameItems.ts';

/**
 * Puts each problem on its node or edge, and names each edge afresh (its problems, and the kind
 * of the trigger it is taken on, which an edit of its source node may change). Only the items
 * whose problems or name changed get new objects, so a fix re-renders what it fixed.
 */
export function withProblems<T extends CanvasNode | CanvasEdge>(
  items: readonly T[],
  problems: readonly Problem[],
  key: 'nodeId' | 'edgeId',
  nodeOf: (id: string) => FlowNode | undefined = () => undefined,
  closing: ReadonlyMap<string, ClosingEdge> = new Map(),
): T[] {
  const byId = new Map<string, string[]>();
  const warningsById = new Map<string, string[]>();
  for (const p of problems) {
    const id = p[key];
    if (id === undefined) continue;
    const into = p.severity === 'warning' ? warningsById : byId;
    into.set(id, [...(into.get(id) ?? []), p.message]);
  }
  return items.map((item) => {
    const next = byId.get(item.id) ?? [];
    const nextWarnings = warningsById.get(item.id) ?? [];
    const data = item.data as { problems: readonly string[]; warnings?: readonly string[] };
    const edge = key === 'edgeId' ? (item as CanvasEdge).data?.edge : undefined;
    const ariaLabel =
      edge &&
      edgeAriaLabel(
        edge,
        next,
        edgeTriggerKind(edge, nodeOf(edge.from)),
        closing.get(edge.id)?.head,
      );
    const sameProblems =
      sameItems(data.problems, next) && sameItems(data.warnings ?? [], nextWarnings);
    if (sameProblems && (ariaLabel === undefined || ariaLabel === item.ariaLabel)) return item;
    const named = ariaLabel !== undefined ? { ariaLabel } : {};
    const nextData = sameProblems
      ? data
      : {
          ...data,
          problems: next,
          ...(key === 'nodeId' || nextWarnings.length > 0 ? { warnings: nextWarnings } : {}),
        };
    return { ...item, ...named, data: nextData } as T;
  });
}

/**
 * What a drawing's content is made of: its meta and, of its nodes and edges, the flow's records
 * they hold; positions and selection do not change what validation says. Kept as the drawing's
 * own arrays and compared item by item, not copied: the designer changes on every frame of a
 * drag, and mapping 5,000 nodes and 6,000 edges into new lists each time was work a frame did
 * for nothing.
 */
type Content = Drawing;

function changed(a: Content, b: Content): boolean {
  if (a.meta !== b.meta || a.nodes.length !== b.nodes.length || a.edges.length !== b.edges.length)
    return true;
  if (a.nodes !== b.nodes)
    for (let i = 0; i < a.nodes.length; i++)
      if (a.nodes[i]!.data.node !== b.nodes[i]!.data.node) return true;
  if (a.edges !== b.edges)
    for (let i = 0; i < a.edges.length; i++)
      if (a.edges[i]!.data?.edge !== b.edges[i]!.data?.edge) return true;
  return false;
}

/**
 * The checks, loaded once on demand: they hold the parsers of expressions and patterns (JSONata,
 * RE2), a fifth of the app's JavaScript, which the first screen does not need to draw the flow.
 */
const loadChecks = () => import('../../shared/validateFlow.ts');

/**
 * Validates the open flow whenever its content changes (a short pause after typing, so a burst of
 * edits validates once) against the workspace's other flows, and puts every problem on its node
 * or edge and in the problems list.
 */
export function startLiveValidation(
  store: DesignerStore,
  workspace: () => ReadonlyMap<string, Flow>,
  delayMs = 120,
): () => void {
  let last: Content = store.getState();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let checks: Awaited<ReturnType<typeof loadChecks>> | undefined;
  let stopped = false;
  const run = () => {
    const s = store.getState();
    if (!s.open || !checks) return;
    const { validateFlow, designFlowWarnings } = checks;
    const flow = currentFlow(store);
    const flows = new Map(workspace());
    flows.set(flow.id, flow);
    const problems = [...validateFlow(flow, { flows }), ...designFlowWarnings(flow)];
    const nodesById = new Map(flow.nodes.map((n) => [n.id, n]));
    const found = closingEdges(flow);
    store.setState((now) => {
      const closing = sameClosing(now.closing, found) ? now.closing : found;
      return {
        problems,
        checked: true,
        closing,
        nodes: withProblems(now.nodes, problems, 'nodeId'),
        edges: withProblems(now.edges, problems, 'edgeId', (id) => nodesById.get(id), closing),
      };
    });
  };
  void loadChecks().then((loaded) => {
    checks = loaded;
    if (!stopped) run();
  });
  const unsubscribe = store.subscribe((s) => {
    if (!changed(s, last)) return;
    last = s;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}

/**
 * Every loop's closing edges, with the nodes of the loop they close: the canvas routes each
 * round those nodes, a loop's below the loops nested inside it, and several into one head apart.
 */
export function closingEdges(flow: Flow): Map<string, ClosingEdge> {
  const loops = analyzeLoops(flow);
  const out = new Map<string, ClosingEdge>();
  for (const loop of loops.loops.values()) {
    const inner = [...loops.loops.values()].filter(
      (l) => l.head !== loop.head && loop.nodes.has(l.head),
    ).length;
    loop.closingEdges.forEach((id, i) => {
      out.set(id, { head: loop.head, spans: [...loop.nodes], depth: i + inner * 2 });
    });
  }
  return out;
}

function sameClosing(a: ReadonlyMap<string, ClosingEdge>, b: ReadonlyMap<string, ClosingEdge>) {
  if (a.size !== b.size) return false;
  for (const [id, c] of a) {
    const d = b.get(id);
    if (!d || d.head !== c.head || d.depth !== c.depth || !sameItems(d.spans, c.spans))
      return false;
  }
  return true;
}
