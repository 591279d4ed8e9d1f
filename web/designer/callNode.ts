import { CALL_DEFAULTS } from '../../shared/callRules.ts';
import type { FlowNode, HttpMethod } from '../../shared/schema.ts';
import { callHost, loneCall } from './describeNode.ts';

/** What the canvas draws of a Call: its method, the host its URL names, and the URL itself. */
export interface CallNodeSummary {
  method: HttpMethod;
  /** The host, or words saying why none can be read from the text ("a computed URL"). */
  host: string;
  url: string;
}

/**
 * A continue-after whose one trigger is a call is drawn as a Call (what the palette's Call adds);
 * one with other triggers beside the call (a deadline) is a wait that races a call, drawn as a
 * continue-after with a call row. Undefined for every other node.
 */
export function callNodeSummary(node: FlowNode): CallNodeSummary | undefined {
  const call = loneCall(node);
  if (call === undefined) return undefined;
  return {
    method: call.method ?? CALL_DEFAULTS.method,
    host: callHost(call.url),
    url: call.url,
  };
}
