import { JSONATA_FUNCTIONS } from '../../../ui/codeEditor/jsonataFunctions.ts';

export interface ExpressionOption {
  label: string;
  type: 'function' | 'variable';
  detail?: string;
}

export interface ExpressionCompletion {
  /** Where the word being completed starts; the option replaces `[from, pos)`. */
  from: number;
  options: ExpressionOption[];
}

/** A name or a dotted path being typed, or a `$` function name, ending at the cursor. */
const WORD_BEFORE = /(?:\$[\w]*|[A-Za-z_][\w]*(?:\.[A-Za-z_]?[\w]*)*)$/;

/** True when `pos` is inside a string literal (quotes before it are not all closed). */
export function inString(text: string, pos: number): boolean {
  let quote: string | undefined;
  for (let i = 0; i < pos; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
  }
  return quote !== undefined;
}

/**
 * What the expression editor offers at `pos`: JSONata's functions after a `$`, the context paths
 * seen in the flow after a name (`order.to` offers `order.total`); everything on an explicit
 * request (Ctrl+Space) where no word is typed; nothing inside a string.
 */
export function completeExpression(
  text: string,
  pos: number,
  paths: readonly string[],
  explicit = false,
): ExpressionCompletion | null {
  if (inString(text, pos)) return null;
  const word = WORD_BEFORE.exec(text.slice(0, pos))?.[0] ?? '';
  const from = pos - word.length;
  // A name right after a dot continues a path the editor cannot follow (`$x.a`): offer nothing.
  if (word !== '' && text[from - 1] === '.') return null;
  if (word === '' && !explicit) return null;
  const functions: ExpressionOption[] = JSONATA_FUNCTIONS.filter(([name]) =>
    name.startsWith(word),
  ).map(([name, signature]) => ({ label: name, type: 'function', detail: signature }));
  if (word.startsWith('$')) return functions.length > 0 ? { from, options: functions } : null;
  const variables: ExpressionOption[] = paths
    .filter((p) => p.startsWith(word) && p !== word)
    .map((p) => ({ label: p, type: 'variable', detail: 'context' }));
  const options = word === '' ? [...variables, ...functions] : variables;
  return options.length > 0 ? { from, options } : null;
}
