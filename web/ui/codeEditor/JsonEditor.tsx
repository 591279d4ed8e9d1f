import { json } from '@codemirror/lang-json';
import { linter, type Diagnostic } from '@codemirror/lint';
import { MAX_VALUE_CHARS } from '../../../shared/contextWrite.ts';
import { jsonSyntaxProblem } from '../../../shared/jsonText.ts';
import { CodeMirrorEditor, type CodeMirrorProps } from './CodeMirrorEditor.tsx';
import { codeHighlighting } from './jsonataLanguage.ts';

/**
 * The syntax error marked at its characters, with the message the form gives when it refuses
 * the text. Not lang-json's jsonParseLinter: it places the mark by the position in JSON.parse's
 * message, which Chromium leaves out for an unexpected token (`[1,]`), so it marked character 0.
 */
const jsonSyntax = linter(
  (view): Diagnostic[] => {
    const p = jsonSyntaxProblem(view.state.doc.toString());
    return p ? [{ from: p.from, to: p.to, severity: 'error', message: p.message }] : [];
  },
  { delay: 100 },
);

/** JSON's language (lang-json's parser: highlighting, indentation) and its syntax check. */
const JSON_EXTENSIONS = [json(), codeHighlighting, jsonSyntax];

export type JsonEditorProps = Omit<CodeMirrorProps, 'extensions' | 'multiline'>;

/**
 * The CodeMirror editor of a JsonField, in the code editor's chunk, loaded when one is shown. A
 * JSON document here becomes a value (a context, an event's payload): it holds no more than a
 * value may (MAX_VALUE_CHARS), and a longer paste is refused before it is laid out.
 */
export function JsonEditor(props: JsonEditorProps) {
  return (
    <CodeMirrorEditor
      {...props}
      extensions={JSON_EXTENSIONS}
      multiline
      maxChars={MAX_VALUE_CHARS}
    />
  );
}
