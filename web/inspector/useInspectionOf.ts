import { useRef } from 'react';
import { useInspector, type Inspection } from './inspectorState.ts';

/**
 * The inspection, for a run-view panel that shows only `parts` of it: the same object until one
 * of those parts is a new object (a reading keeps every part that did not change,
 * inspectorState.ts), so that a wake renders the panels whose data changed and no other.
 *
 * Each panel reads the store itself instead of being handed the inspection by the run view:
 * handed down, every reading rendered the run view, its layout and, round each panel that
 * changed, its error boundary (PanelBoundary) and that boundary's tripwire, four components
 * per panel where one draws anything (docs/performance.md, "Renders per wake").
 *
 * A panel is mounted only under an inspection; as the inspection goes, its panels keep the
 * last one for the moment before the run view unmounts them.
 */
export function useInspectionOf(parts: readonly (keyof Inspection)[]): Inspection {
  const held = useRef<Inspection | undefined>(undefined);
  // As zustand's useShallow does: the selector compares with what it returned last.
  const inspection = useInspector((s) => {
    const now = s.inspection;
    const was = held.current;
    if (!now || (was && parts.every((k) => was[k] === now[k]))) return was;
    held.current = now;
    return now;
  });
  if (!inspection) throw new Error('a run-view panel was drawn with no process inspected');
  return inspection;
}
