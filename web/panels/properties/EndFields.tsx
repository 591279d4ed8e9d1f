import { memo, useId } from 'react';
import type { NodeOf } from '../../../shared/schema.ts';
import { useStoreEdits } from './storeEdits.ts';

/** An end node ends its branch; `terminate` ends the whole process (or the sub-flow it is in). */
export const EndFields = memo(function EndFields({ node }: { node: NodeOf<'end'> }) {
  const hintId = useId();
  const { changeNode } = useStoreEdits();
  const setTerminate = (on: boolean) =>
    changeNode(node.id, 'end', (n) => {
      if (on) return { ...n, terminate: true };
      const { terminate: _gone, ...rest } = n;
      return rest as NodeOf<'end'>;
    });
  return (
    <div className="prop-field">
      <label className="prop-check">
        <input
          className="nodrag"
          type="checkbox"
          checked={node.terminate === true}
          aria-describedby={hintId}
          onChange={(e) => setTerminate(e.target.checked)}
        />{' '}
        Terminate the whole process
      </label>
      <p id={hintId} className="prop-hint">
        {node.terminate
          ? 'Reaching this node drops every other branch and wait; the process is done. In a sub-flow, it ends that sub-flow.'
          : 'Reaching this node ends this branch only.'}
      </p>
    </div>
  );
});
