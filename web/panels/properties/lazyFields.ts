import { lazy } from 'react';

// The fields check what is typed as it is typed, with the parsers of expressions and patterns
// (JSONata, RE2): loaded when first needed, or ahead of it once the page is idle, never with
// the first screen.
const loadNodeFields = () => import('./NodeFields.tsx');
const loadEdgeFields = () => import('./EdgeFields.tsx');

export const NodeFields = lazy(() => loadNodeFields().then((m) => ({ default: m.NodeFields })));
export const EdgeFields = lazy(() => loadEdgeFields().then((m) => ({ default: m.EdgeFields })));

/** Loads the fields once the page has nothing else to do, so that a first selection shows them. */
export function preloadFieldsWhenIdle(): () => void {
  const load = () => {
    void loadNodeFields();
    void loadEdgeFields();
  };
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(load, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(load, 200);
  return () => clearTimeout(id);
}
