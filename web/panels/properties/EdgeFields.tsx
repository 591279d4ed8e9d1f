import { memo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { FlowEdge } from '../../../shared/schema.ts';
import { useDesigner } from '../../designer/designerStore.ts';
import { conditionCheckAt } from './checks.ts';
import { CodeField } from './codeEditor/CodeField.tsx';
import { Field, ReadOnlyField } from './Field.tsx';
import { useStoreEdits } from './storeEdits.ts';

/** The source's trigger ids when it is a continue-after node; null for any other source. */
function useSourceTriggers(sourceId: string): string[] | null {
  return useDesigner(
    useShallow((s) => {
      const source = s.nodes.find((n) => n.id === sourceId)?.data.node;
      return source?.kind === 'continue-after' ? source.on.map((t) => t.id) : null;
    }),
  );
}

/** An edge: where it goes, the condition for taking it, and the trigger it leaves by. */
export const EdgeFields = memo(function EdgeFields({ edge }: { edge: FlowEdge }) {
  const { changeEdge } = useStoreEdits();
  const sourceTriggers = useSourceTriggers(edge.from);
  const triggers = sourceTriggers ?? [];
  const showTrigger = sourceTriggers !== null || edge.trigger !== undefined;
  const unknownTrigger = edge.trigger !== undefined && !triggers.includes(edge.trigger);

  const setWhen = (text: string) =>
    changeEdge(edge.id, (e) => {
      if (text.trim() !== '') return { ...e, when: text };
      const { when: _gone, ...rest } = e;
      return rest;
    });
  const setTrigger = (id: string) =>
    changeEdge(edge.id, (e) => {
      if (id !== '') return { ...e, trigger: id };
      const { trigger: _gone, ...rest } = e;
      return rest;
    });

  return (
    <>
      <ReadOnlyField label="Id" value={edge.id} />
      <ReadOnlyField label="From" value={edge.from} />
      <ReadOnlyField label="To" value={edge.to} />
      <CodeField
        label="Condition (when, JSONata)"
        value={edge.when ?? ''}
        placeholder="always"
        check={conditionCheckAt}
        hint={(text) => (text.trim() === '' ? 'Empty: the edge is always taken.' : undefined)}
        onCommit={setWhen}
      />
      {showTrigger && (
        <Field
          label="Taken when trigger fires"
          error={
            unknownTrigger
              ? sourceTriggers === null
                ? `"${edge.from}" is not a continue-after node and has no triggers.`
                : `"${edge.from}" has no trigger "${edge.trigger}".`
              : undefined
          }
          hint={edge.trigger === undefined ? 'None: taken whichever trigger fired.' : undefined}
        >
          {(control) => (
            <select
              {...control}
              className="nodrag"
              value={edge.trigger ?? ''}
              onChange={(e) => setTrigger(e.target.value)}
            >
              <option value="">None (any trigger)</option>
              {unknownTrigger && <option value={edge.trigger}>{edge.trigger} (missing)</option>}
              {triggers.map((id, i) => (
                <option key={i} value={id}>
                  {id}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </>
  );
});
