import { useEffect } from 'react';
import { useDesigner, useDesignerStore } from '../designer/designerStore.ts';
import { Button } from '../ui/Button.tsx';
import { openLevel } from './openInPlace.ts';
import { setScope, useInspector, useInspectorStore } from './inspectorState.ts';
import { useWorkspaceActions } from '../workspace/workspaceActions.ts';

/**
 * Where the canvas is in the inspected process: its top-level flow, then each sub-flow node
 * followed into, the last being the flow drawn. Every level above is a button back up.
 */
export function ScopeBreadcrumb() {
  // Its levels and id, not the whole inspection: a wake does not render it.
  const levels = useInspector((s) => s.inspection?.levels);
  const processId = useInspector((s) => s.inspection?.record.id);
  const flowId = useDesigner((s) => s.meta.id);
  const inspector = useInspectorStore();
  const workspace = useWorkspaceActions();
  const designer = useDesignerStore();

  // A flow opened some other way (the workspace list) that is a level of the path goes to that
  // level, so the position drawn is always that of the flow on the canvas.
  useEffect(() => {
    if (!levels || levels[levels.length - 1]!.flow === flowId) return;
    const level = levels.find((l) => l.flow === flowId);
    if (level) setScope(inspector, level.path);
  }, [levels, flowId, inspector]);

  if (!processId || !levels || levels.length < 2) return null;
  if (levels[levels.length - 1]!.flow !== flowId) return null;
  return (
    <nav className="scope-breadcrumb" aria-label={`Sub-flows of process ${processId}`}>
      <ol>
        {levels.map((level, i) => {
          const last = i === levels.length - 1;
          return (
            <li key={level.path.join('/')}>
              {last ? (
                <span aria-current="location">{level.label}</span>
              ) : (
                <Button
                  size="sm"
                  variant="ghost"
                  tooltip={`Back up to ${level.label}`}
                  onClick={() =>
                    void openLevel({ inspector, designer, workspace }, level.path, level.flow)
                  }
                >
                  {level.label}
                </Button>
              )}
              {!last && <span aria-hidden="true"> › </span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
