import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { JSONATA_FUNCTIONS } from './jsonataFunctions.ts';

const FUNCTIONS = new Set(JSONATA_FUNCTIONS.map(([name]) => name));
const KEYWORDS = new Set(['and', 'or', 'in', 'function']);
const ATOMS = new Set(['true', 'false', 'null']);

interface State {
  /** Inside a `/* … *\/` comment that began on an earlier line. */
  comment: boolean;
}

/**
 * JSONata's tokens for highlighting only: strings, numbers, comments, `$` functions and
 * variables, keywords, regular expressions and operators. The parse that finds errors is
 * jsonata's own (expressionSyntax.ts); nothing here judges the text.
 */
export const jsonata = StreamLanguage.define<State>({
  name: 'jsonata',
  startState: () => ({ comment: false }),
  token(stream, state) {
    if (state.comment) {
      if (stream.skipTo('*/')) {
        stream.pos += 2;
        state.comment = false;
      } else stream.skipToEnd();
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('/*')) {
      state.comment = true;
      return 'comment';
    }
    const quote = stream.peek();
    if (quote === '"' || quote === "'") {
      stream.next();
      let escaped = false;
      for (let c = stream.next(); c !== undefined; c = stream.next()) {
        if (c === quote && !escaped) break;
        escaped = !escaped && c === '\\';
      }
      return 'string';
    }
    if (stream.match('`')) {
      stream.skipTo('`');
      stream.next();
      return 'propertyName';
    }
    if (stream.match(/^-?\d+(\.\d+)?([eE][+-]?\d+)?/)) return 'number';
    if (stream.match(/^\$\w*/)) {
      return FUNCTIONS.has(stream.current()) ? 'variableName.standard' : 'variableName.special';
    }
    if (stream.match(/^[A-Za-z_]\w*/)) {
      const word = stream.current();
      if (KEYWORDS.has(word)) return 'keyword';
      if (ATOMS.has(word)) return 'atom';
      return 'propertyName';
    }
    // A regular expression stands where a value does: after `(`, `,` or `~>`; a `/` after a
    // value divides.
    const before = stream.string.slice(0, stream.pos).trimEnd();
    if (stream.peek() === '/' && (before === '' || /[(,[:]$|~>$/.test(before))) {
      if (stream.match(/^\/(?:[^/\\]|\\.)+\/[im]*/)) return 'regexp';
    }
    if (stream.match(/^(:=|~>|!=|<=|>=|\.\.|\?\?|\?:|[-+*/%&=<>!?:~^])/)) return 'operator';
    stream.next();
    return 'punctuation';
  },
  languageData: { closeBrackets: { brackets: ['(', '[', '{', '"', "'"] } },
});

/**
 * Colours by class, so that the theme's tokens (light and dark) set them (codeEditor.css); JSON's
 * `true`, `false` and `null` are coloured as JSONata's.
 */
export const jsonataStyle = HighlightStyle.define([
  { tag: tags.string, class: 'wf-code-string' },
  { tag: tags.number, class: 'wf-code-number' },
  { tag: tags.comment, class: 'wf-code-comment' },
  { tag: tags.keyword, class: 'wf-code-keyword' },
  { tag: [tags.atom, tags.bool, tags.null], class: 'wf-code-atom' },
  { tag: tags.standard(tags.variableName), class: 'wf-code-function' },
  { tag: tags.special(tags.variableName), class: 'wf-code-variable' },
  { tag: tags.propertyName, class: 'wf-code-path' },
  { tag: tags.regexp, class: 'wf-code-regexp' },
  { tag: tags.operator, class: 'wf-code-operator' },
]);

/** The theme's colours for the tokens of every code field (JSONata's and JSON's alike). */
export const codeHighlighting = syntaxHighlighting(jsonataStyle);

/** The JSONata language and its highlighting, as one editor extension. */
export const jsonataHighlighting = [jsonata, codeHighlighting];
