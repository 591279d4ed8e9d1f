import { memo, useState } from 'react';
import type { NodeOf } from '../../../shared/schema.ts';
import { AssignmentRow } from './AssignmentRow.tsx';
import { indexAfterRemoval } from './listEdits.ts';
import {
  addAssignment,
  moveAssignment,
  removeAssignment,
  renamePath,
  setExpression,
  type Assignments,
} from './setEdits.ts';
import { useStoreEdits } from './storeEdits.ts';
import { useFocusAfter } from './useFocusAfter.ts';

/** A work node's `set`: assignments that run in the order listed, each seeing those before. */
export const WorkFields = memo(function WorkFields({ node }: { node: NodeOf<'work'> }) {
  const { changeNode } = useStoreEdits();
  const set = node.set ?? {};
  const entries = Object.entries(set);
  const { container, focusAfter } = useFocusAfter<HTMLFieldSetElement>();
  // Rows are keyed by position; a new layout after a move or removal drops any draft left in a
  // row (one refused as a duplicate path) rather than showing it on the row that took its place.
  const [layout, setLayout] = useState(0);
  const restructure = () => setLayout((l) => l + 1);
  const change = (edit: (set: Assignments) => Assignments | undefined) =>
    changeNode(node.id, 'work', (n) => ({ ...n, set: edit(n.set ?? {}) ?? n.set ?? {} }));

  const move = (from: number, to: number) => {
    // Focus stays on the moved row's button, or its other one once it reaches an end.
    const dir = to < from ? 'up' : 'down';
    focusAfter(`set-${to}-${dir}`, `set-${to}-${dir === 'up' ? 'down' : 'up'}`);
    restructure();
    change((s) => moveAssignment(s, from, to));
  };
  const remove = (index: number) => {
    const next = indexAfterRemoval(entries.length, index);
    focusAfter(`set-${next}-remove`, 'set-add');
    restructure();
    change((s) => removeAssignment(s, index));
  };
  const add = () => {
    focusAfter(`set-${entries.length}-path`);
    change(addAssignment);
  };

  return (
    <fieldset className="prop-group" ref={container}>
      <legend>Assignments (set)</legend>
      <p className="prop-hint">
        They run in this order, each seeing the ones before; the context gets all of them at once
        when the node completes.
      </p>
      {entries.length > 0 && (
        <ol className="prop-rows" key={layout}>
          {entries.map(([path, expression], index) => (
            <AssignmentRow
              key={index}
              set={set}
              index={index}
              path={path}
              expression={expression}
              onRename={(p) => change((s) => renamePath(s, index, p))}
              onExpression={(e) => change((s) => setExpression(s, index, e))}
              onMove={(to) => move(index, to)}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
      <button type="button" data-focus="set-add" onClick={add}>
        Add assignment
      </button>
    </fieldset>
  );
});
