/**
 * How a sub-flow node's "Open" button reaches the app: node components get no props but their
 * data (React Flow renders them), so the app registers one handler here, while it is mounted.
 */
export type OpenSubflowHandler = (flowId: string, nodeId?: string) => void;

let handler: OpenSubflowHandler | undefined;

/**
 * Registers what opening a sub-flow does, replacing any handler before it. Returns a function
 * that removes this handler (and only this one), for a `useEffect` cleanup.
 */
export function setOpenSubflowHandler(fn: OpenSubflowHandler | undefined): () => void {
  handler = fn;
  return () => {
    if (handler === fn) handler = undefined;
  };
}

/**
 * Opens the flow with this id through the registered handler, from the sub-flow node `nodeId`
 * (so that a process inspected there can be followed into it); false when none is registered.
 */
export function openSubflow(flowId: string, nodeId?: string): boolean {
  if (handler === undefined) return false;
  handler(flowId, nodeId);
  return true;
}
