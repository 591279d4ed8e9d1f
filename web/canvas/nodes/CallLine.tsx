import type { CallNodeSummary } from '../../designer/callNode.ts';

/**
 * A Call's row text: the method as a tag, then the host, cut with an ellipsis when long; the
 * title holds the whole URL expression (docs/app.md#calls).
 */
export function CallLine({ call }: { call: CallNodeSummary }) {
  return (
    <span className="wf-trigger__text wf-call" title={call.url || undefined}>
      <span className="wf-call__method">{call.method}</span>{' '}
      <span className="wf-call__host">{call.host}</span>
    </span>
  );
}
