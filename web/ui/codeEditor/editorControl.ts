/** How a code editor is tied to its label and messages. Kept out of the editor's chunk. */
export interface EditorControl {
  id: string;
  /** The id of the visible label: the editor is not a form control, so it is named by it. */
  labelId: string;
  describedBy?: string | undefined;
  invalid?: boolean | undefined;
}

/** The ids a Field gives its control, for an editor; the Field's label has the id `${id}-label`. */
export function fieldControl(c: {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}): EditorControl {
  return {
    id: c.id,
    labelId: `${c.id}-label`,
    describedBy: c['aria-describedby'],
    invalid: c['aria-invalid'],
  };
}

/**
 * An editor whose label (id `${id}-label`) stands beside it, and whose problem, when there is
 * one, is said in the element `problemId`.
 */
export const labelledControl = (id: string, problemId: string | undefined): EditorControl => ({
  id,
  labelId: `${id}-label`,
  describedBy: problemId,
  invalid: problemId !== undefined,
});
