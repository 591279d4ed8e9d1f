/** One reason a flow cannot run, on the node or edge it belongs to. */
export interface Problem {
  /** A stable name for the rule broken, for tests and for filtering. */
  rule: string;
  message: string;
  nodeId?: string;
  edgeId?: string;
  /**
   * Set on what designFlowWarnings finds: worth a designer's attention, but no reason to refuse
   * a process (docs/format.md#errors refuses only the problems validateFlow reports).
   */
  severity?: 'warning';
}
