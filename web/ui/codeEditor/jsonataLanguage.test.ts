import { ensureSyntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { highlightTree } from '@lezer/highlight';
import { describe, expect, it } from 'vitest';
import { jsonata, jsonataStyle } from './jsonataLanguage.ts';

/** Each highlighted stretch of `text` with the class it is drawn in. */
function classes(text: string): [string, string][] {
  const state = EditorState.create({ doc: text, extensions: [jsonata] });
  const tree = ensureSyntaxTree(state, text.length, 5_000)!;
  const out: [string, string][] = [];
  highlightTree(tree, jsonataStyle, (from, to, cls) => out.push([text.slice(from, to), cls]));
  return out;
}

describe('JSONata highlighting', () => {
  it('tells functions, paths, numbers, keywords, strings and operators apart', () => {
    expect(classes('$sum(order.total) > 100 and "a\\"b"')).toEqual([
      ['$sum', 'wf-code-function'],
      ['order', 'wf-code-path'],
      ['total', 'wf-code-path'],
      ['>', 'wf-code-operator'],
      ['100', 'wf-code-number'],
      ['and', 'wf-code-keyword'],
      ['"a\\"b"', 'wf-code-string'],
    ]);
  });

  it('draws variables, atoms, comments and regular expressions in their own colours', () => {
    expect(classes('$x := true /* why */')).toEqual([
      ['$x', 'wf-code-variable'],
      [':=', 'wf-code-operator'],
      ['true', 'wf-code-atom'],
      ['/* why */', 'wf-code-comment'],
    ]);
    expect(classes('$match(s, /a+b/i)')).toContainEqual(['/a+b/i', 'wf-code-regexp']);
    // After a value, a slash divides.
    expect(classes('a / 2')).toContainEqual(['/', 'wf-code-operator']);
  });

  it('colours an unterminated string or comment to the end, without failing', () => {
    expect(classes('"abc')).toEqual([['"abc', 'wf-code-string']]);
    expect(classes('1 /* open')).toContainEqual(['/* open', 'wf-code-comment']);
  });
});
