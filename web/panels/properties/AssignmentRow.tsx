import { expressionCheckAt, pathCheck } from './checks.ts';
import { CodeField } from './codeEditor/CodeField.tsx';
import { renameProblem, type Assignments } from './setEdits.ts';
import { TextField } from './TextField.tsx';

interface AssignmentRowProps {
  set: Assignments;
  index: number;
  path: string;
  expression: string;
  onRename: (path: string) => void;
  onExpression: (expression: string) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}

/** One `set` entry: the context path written and the JSONata expression that computes it. */
export function AssignmentRow(props: AssignmentRowProps) {
  const { set, index, path, expression } = props;
  const n = index + 1;
  const count = Object.keys(set).length;
  return (
    <li>
      <fieldset className="prop-row">
        <legend>Assignment {n}</legend>
        <TextField
          label="Context path"
          value={path}
          code
          focusName={`set-${index}-path`}
          check={pathCheck}
          refuse={(text) => renameProblem(set, index, text)}
          onCommit={props.onRename}
        />
        <CodeField
          label="Expression (JSONata)"
          value={expression}
          check={expressionCheckAt}
          onCommit={props.onExpression}
        />
        <div className="prop-row-actions">
          <button
            type="button"
            data-focus={`set-${index}-up`}
            aria-label={`Move assignment ${n} up`}
            title="Move up: runs earlier"
            disabled={index === 0}
            onClick={() => props.onMove(index - 1)}
          >
            ↑
          </button>
          <button
            type="button"
            data-focus={`set-${index}-down`}
            aria-label={`Move assignment ${n} down`}
            title="Move down: runs later"
            disabled={index === count - 1}
            onClick={() => props.onMove(index + 1)}
          >
            ↓
          </button>
          <button
            type="button"
            data-focus={`set-${index}-remove`}
            aria-label={`Remove assignment ${n}`}
            title="Remove"
            onClick={props.onRemove}
          >
            Remove
          </button>
        </div>
      </fieldset>
    </li>
  );
}
