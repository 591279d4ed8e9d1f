import { memo, useState } from 'react';
import type { NodeOf, Trigger } from '../../../shared/schema.ts';
import { indexAfterRemoval, removeAt } from './listEdits.ts';
import { useStoreEdits } from './storeEdits.ts';
import { edgesAfterTriggerChange, newTrigger, type TriggerKind } from './triggerEdits.ts';
import { TriggerItem } from './TriggerItem.tsx';
import { useFocusAfter } from './useFocusAfter.ts';

const ADD: { kind: TriggerKind; label: string }[] = [
  { kind: 'timer', label: 'Add timer' },
  { kind: 'event', label: 'Add event' },
  { kind: 'human', label: 'Add human' },
  { kind: 'call', label: 'Add call' },
];

/** A continue-after node's triggers: the process sleeps until the first of them fires. */
export const TriggerFields = memo(function TriggerFields({
  node,
}: {
  node: NodeOf<'continue-after'>;
}) {
  const { changeNode, changeNodeAndEdges } = useStoreEdits();
  const { container, focusAfter } = useFocusAfter<HTMLFieldSetElement>();
  // See WorkFields: a removal re-keys the rows so that no draft moves to another trigger.
  const [layout, setLayout] = useState(0);

  const change = (edit: (on: Trigger[]) => Trigger[]) =>
    changeNode(node.id, 'continue-after', (n) => ({ ...n, on: edit(n.on) }));

  const rename = (index: number, id: string) =>
    changeNodeAndEdges(node.id, 'continue-after', (n, edges) => {
      const from = n.on[index]?.id;
      if (from === undefined) return { node: n, edges: [...edges] };
      return {
        node: { ...n, on: n.on.map((t, i) => (i === index ? { ...t, id } : t)) },
        edges: edgesAfterTriggerChange(edges, n.id, from, id),
      };
    });

  const remove = (index: number) => {
    focusAfter(`trigger-${indexAfterRemoval(node.on.length, index)}-remove`, 'trigger-add-timer');
    setLayout((l) => l + 1);
    changeNodeAndEdges(node.id, 'continue-after', (n, edges) => {
      const from = n.on[index]?.id;
      if (from === undefined) return { node: n, edges: [...edges] };
      return {
        node: { ...n, on: removeAt(n.on, index) },
        edges: edgesAfterTriggerChange(edges, n.id, from, undefined),
      };
    });
  };

  const add = (kind: TriggerKind) => {
    focusAfter(`trigger-${node.on.length}-id`);
    change((on) => [...on, newTrigger(kind, on)]);
  };

  return (
    <fieldset className="prop-group" ref={container}>
      <legend>Triggers (on)</legend>
      <p className="prop-hint">
        The process sleeps here until one trigger fires; the first to fire wins.
      </p>
      {node.on.length === 0 && <p className="prop-error">Add at least one trigger.</p>}
      {node.on.length > 0 && (
        <ul className="prop-rows" key={layout}>
          {node.on.map((trigger, index) => (
            <TriggerItem
              key={index}
              triggers={node.on}
              index={index}
              trigger={trigger}
              onChange={(edit) => change(edit)}
              onRename={(id) => rename(index, id)}
              onRemove={() => remove(index)}
            />
          ))}
        </ul>
      )}
      <div className="prop-row-actions">
        {ADD.map(({ kind, label }) => (
          <button
            key={kind}
            type="button"
            data-focus={`trigger-add-${kind}`}
            onClick={() => add(kind)}
          >
            {label}
          </button>
        ))}
      </div>
    </fieldset>
  );
});
