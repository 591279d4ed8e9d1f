import { memo, useEffect, useRef } from 'react';
import { useAnimateSteps } from '../inspector/animateSteps.ts';
import { trailPrefix, type InspectorState } from '../inspector/inspectorState.ts';

/** How long a token takes along one edge, and the most a Run's tokens take in all (ms). */
export const TOKEN_MS = 700;
const TRAIL_MS = 3_500;

/**
 * A token run along an edge that the inspected process's last Step or Run took (as Camunda's
 * token simulation does): once, from the source to the target, then it fades out. A Run's
 * tokens go one after another in the order the edges were taken, sooner when there are many.
 * The element stays, faded, until the next step, so that what a step took can be read from the
 * DOM without timing it (e2e/tokenAnimation.spec.ts). Off with "Animate steps" or the system's
 * reduced motion. Drawn over the edge; nothing of the edge's own drawing changes.
 */
export const EdgeToken = memo(function EdgeToken({
  id,
  path,
  taken,
}: {
  id: string;
  path: string;
  /** Where the edge is in the last step's trail (takenBy): '' when the step did not take it. */
  taken: string;
}) {
  return taken === '' ? null : <TakenToken id={id} path={path} taken={taken} />;
});

/**
 * Where edge `id` of flow `flowId` is in the inspected process's last step's trail, as one
 * string per step (`key:order:count`), or '' when that step did not take it. The edge reads it
 * with the rest of what it reads of the run view, in one subscription.
 */
export function takenBy(s: InspectorState, flowId: string, id: string): string {
  const prefix = trailPrefix(s, flowId);
  if (prefix === undefined) return '';
  const order = s.trail!.edges.indexOf(prefix + id);
  return order === -1 ? '' : `${s.trail!.key}:${order}:${s.trail!.edges.length}`;
}

/**
 * The ids of the edges of flow `flowId`'s canvas that the inspected process's last step took,
 * one a line ('' for none): as one string, so that a change of the store that leaves them as
 * they were changes nothing.
 */
export function takenEdges(s: InspectorState, flowId: string): string {
  const prefix = trailPrefix(s, flowId);
  if (prefix === undefined) return '';
  return s
    .trail!.edges.filter((e) => e.startsWith(prefix) && !e.slice(prefix.length).includes('/'))
    .map((e) => e.slice(prefix.length))
    .join('\n');
}

/** The token of an edge a step took, unless tokens are off (the setting, reduced motion). */
function TakenToken({ id, path, taken }: { id: string; path: string; taken: string }) {
  const animate = useAnimateSteps();
  if (!animate) return null;
  const [key, order, count] = taken.split(':').map(Number) as [number, number, number];
  const pace = Math.min(TOKEN_MS, TRAIL_MS / count);
  return <Token key={key} edge={id} path={path} delay={order * pace} duration={TOKEN_MS} />;
}

function Token({
  edge,
  path,
  delay,
  duration,
}: {
  edge: string;
  path: string;
  delay: number;
  duration: number;
}) {
  const motion = useRef<SVGAnimateMotionElement>(null);
  const fade = useRef<SVGAnimateElement>(null);
  // SMIL times count from the document's start, so an animation added later is begun from here.
  useEffect(() => {
    motion.current?.beginElementAt(delay / 1000);
    fade.current?.beginElementAt(delay / 1000);
  }, [delay]);
  return (
    <g className="wf-edge-token" data-edge={edge} aria-hidden="true">
      <circle r={6} opacity={0}>
        <animateMotion
          ref={motion}
          path={path}
          dur={`${duration}ms`}
          begin="indefinite"
          fill="freeze"
          calcMode="spline"
          keyPoints="0;1"
          keyTimes="0;1"
          keySplines="0.4 0 0.2 1"
        />
        <animate
          ref={fade}
          attributeName="opacity"
          values="1;1;0"
          keyTimes="0;0.8;1"
          dur={`${duration}ms`}
          begin="indefinite"
          fill="freeze"
        />
      </circle>
    </g>
  );
}
