import { useState } from 'react';
import type { HumanField } from '../../../shared/schema.ts';
import { Field } from './Field.tsx';
import { indexAfterRemoval } from './listEdits.ts';
import { TextField } from './TextField.tsx';
import {
  fieldNameProblem,
  newHumanField,
  removeHumanField,
  setHumanField,
} from './triggerEdits.ts';
import { useFocusAfter } from './useFocusAfter.ts';

const TYPES: HumanField['type'][] = ['boolean', 'number', 'string'];

interface HumanFormFieldsProps {
  triggerIndex: number;
  fields: readonly HumanField[];
  onChange: (edit: (fields: HumanField[]) => HumanField[]) => void;
}

/** The form a person fills in to fire a human trigger: each field's name, type and label. */
export function HumanFormFields({ triggerIndex, fields, onChange }: HumanFormFieldsProps) {
  const { container, focusAfter } = useFocusAfter<HTMLFieldSetElement>();
  const [layout, setLayout] = useState(0);
  const prefix = `trigger-${triggerIndex}-field`;

  const add = () => {
    focusAfter(`${prefix}-${fields.length}-name`);
    onChange((fs) => [...fs, newHumanField(fs)]);
  };
  const remove = (index: number) => {
    focusAfter(`${prefix}-${indexAfterRemoval(fields.length, index)}-remove`, `${prefix}-add`);
    setLayout((l) => l + 1);
    onChange((fs) => removeHumanField(fs, index));
  };

  return (
    <fieldset className="prop-group" ref={container}>
      <legend>Form fields</legend>
      {fields.length > 0 && (
        <ul className="prop-rows" key={layout}>
          {fields.map((f, index) => (
            <li key={index} className="prop-row">
              <TextField
                label={`Field ${index + 1} name`}
                value={f.name}
                code
                focusName={`${prefix}-${index}-name`}
                refuse={(text) => fieldNameProblem(fields, index, text)}
                onCommit={(name) => onChange((fs) => setHumanField(fs, index, { name }))}
              />
              <Field label={`Field ${index + 1} type`}>
                {(control) => (
                  <select
                    {...control}
                    className="nodrag"
                    value={f.type}
                    onChange={(e) =>
                      onChange((fs) =>
                        setHumanField(fs, index, { type: e.target.value as HumanField['type'] }),
                      )
                    }
                  >
                    {TYPES.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <TextField
                label={`Field ${index + 1} label (optional)`}
                value={f.label ?? ''}
                onCommit={(label) => onChange((fs) => setHumanField(fs, index, { label }))}
              />
              <div className="prop-row-actions">
                <button
                  type="button"
                  data-focus={`${prefix}-${index}-remove`}
                  aria-label={`Remove field ${index + 1} "${f.name}"`}
                  onClick={() => remove(index)}
                >
                  Remove field
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <button type="button" data-focus={`${prefix}-add`} onClick={add}>
        Add field
      </button>
    </fieldset>
  );
}
