import { useState } from 'react';
import { useDesigner } from '../designer/designerStore.ts';
import { useWorkspaceActions } from '../workspace/workspaceActions.ts';

/** The open flow's name, editable in place (Enter or leaving the field saves); the id stays. */
export function FlowTitle() {
  const id = useDesigner((s) => s.meta.id);
  const name = useDesigner((s) => s.meta.name ?? s.meta.id);
  const [draft, setDraft] = useState<string | undefined>();
  const { renameWorkspaceFlow } = useWorkspaceActions();
  if (!id) return null;
  return (
    <div className="flow-title">
      <label htmlFor="flow-name" className="visually-hidden">
        Flow name
      </label>
      <input
        id="flow-name"
        className="flow-title__name"
        value={draft ?? name}
        title={`${name}: click to rename the flow`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => {
          if (draft !== undefined && draft.trim() && draft !== name)
            void renameWorkspaceFlow(id, draft.trim());
          setDraft(undefined);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
          if (e.key === 'Escape') {
            setDraft(undefined);
            e.currentTarget.blur();
          }
        }}
        size={Math.max(8, (draft ?? name).length + 1)}
      />
      <span className="flow-id">id: {id}</span>
    </div>
  );
}
