import type { FlowNode } from '../../../shared/schema.ts';
import { DependsField } from './DependsField.tsx';
import { ReadOnlyField } from './Field.tsx';
import { useStoreEdits } from './storeEdits.ts';
import { TextField } from './TextField.tsx';

/** What every node has: its id, a label, and the nodes it waits for. */
export function CommonFields({ node }: { node: FlowNode }) {
  const { changeAnyNode } = useStoreEdits();
  const setLabel = (text: string) =>
    changeAnyNode(node.id, (n) => {
      // An empty label is no label: the canvas then shows the id.
      if (text.trim() !== '') return { ...n, label: text };
      const { label: _gone, ...rest } = n;
      return rest as FlowNode;
    });
  return (
    <>
      <ReadOnlyField label="Id" value={node.id} />
      <TextField
        label="Label"
        live
        value={node.label ?? ''}
        onCommit={setLabel}
        placeholder={node.id}
      />
      <DependsField node={node} />
    </>
  );
}
