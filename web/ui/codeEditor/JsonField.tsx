import { lazy, Suspense } from 'react';
import type { JsonEditorProps } from './JsonEditor.tsx';
import './codeEditor.css';

// CodeMirror is most of the editor's weight: loaded the first time a field shows, not with the app.
const JsonEditor = lazy(() => import('./JsonEditor.tsx').then((m) => ({ default: m.JsonEditor })));

/**
 * A JSON document typed on CodeMirror 6 (the editor the expression fields use): highlighted, its
 * syntax error marked at its character as it is typed. What the form checks when it is sent (a
 * context is an object, sizes) stays the form's, said under the field as before. Named by the
 * label whose id it is given; Tab leaves it; Enter makes a new line.
 */
export function JsonField(props: JsonEditorProps) {
  // As tall as the editor opens (its rows, up to 20), so that nothing below the field moves when
  // the editor replaces it: a click aimed at the next control would land elsewhere.
  const rows = Math.min(props.rows ?? 1, 20);
  return (
    <Suspense
      fallback={
        <div
          className="wf-code wf-code--multiline wf-code--loading"
          style={{ ['--wf-code-rows' as string]: rows }}
        >
          {props.value}
        </div>
      }
    >
      <JsonEditor {...props} />
    </Suspense>
  );
}
