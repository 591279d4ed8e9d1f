import { parse as parseTolerant, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { formatJsonPath } from './jsonPath.ts';
import { RESERVED_KEYS } from './schema.ts';

/** Larger files are refused before parsing: no flow comes near this, and the page must not stall. */
export const MAX_TEXT_LENGTH = 32 * 1024 * 1024;
/** Deeper nesting is refused: no flow needs it, and recursive code further on must be safe. */
export const MAX_DEPTH = 256;

export type JsonTextResult =
  { ok: true; value: unknown; warnings: string[] } | { ok: false; error: string };

const FRIENDLY: Record<string, string> = {
  InvalidSymbol: 'unexpected token',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected "," or the end of the object or array',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end of the document',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'the text ends inside a string',
  LineBreakInString: 'a string is not closed on its line (write line breaks as \\n)',
  UnexpectedEndOfNumber: 'the text ends inside a number',
  InvalidUnicode: 'invalid \\u escape in a string',
  InvalidEscapeCharacter: 'invalid escape in a string',
  InvalidCharacter: 'invalid character in a string (control characters must be escaped)',
};

/**
 * Parses JSON text for import. Errors say where and what (`line 4, column 12: unexpected
 * token`). Keys that could reach a prototype (`__proto__`, `constructor`, `prototype`) are
 * stripped at every depth, each named in a warning, so no later copy of the value can pollute
 * an object.
 */
export function parseJsonText(text: string): JsonTextResult {
  if (text.length > MAX_TEXT_LENGTH) {
    const mb = (text.length / 1024 / 1024).toFixed(1);
    return { ok: false, error: `the file is ${mb} MB; files up to 32 MB can be read` };
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, error: 'the file is empty' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    return { ok: false, error: locateSyntaxError(body, e).message };
  }
  return sanitize(value);
}

/** Where JSON text stops being JSON: the characters, and what parseJsonText says of them. */
export interface JsonSyntaxProblem {
  from: number;
  to: number;
  message: string;
}

/**
 * The syntax error of JSON text, at its characters, with the message parseJsonText gives (a
 * field marks it as it is typed); undefined when the text parses, is empty or is too large to
 * read. Offsets count a byte order mark, as an editor does.
 */
export function jsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  if (text.length > MAX_TEXT_LENGTH) return undefined;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = text.slice(bom);
  if (body.trim() === '') return undefined;
  try {
    JSON.parse(body);
    return undefined;
  } catch (e) {
    const found = locateSyntaxError(body, e);
    return { ...found, from: found.from + bom, to: found.to + bom };
  }
}

function locateSyntaxError(text: string, thrown: unknown): JsonSyntaxProblem {
  const errors: ParseError[] = [];
  try {
    parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false });
  } catch {
    // The tolerant parser recurses; absurdly deep text can exhaust the stack. Fall through.
  }
  const first = errors[0];
  if (!first) {
    const detail = thrown instanceof Error ? thrown.message : String(thrown);
    const end = { from: text.length, to: text.length };
    if (!/end of JSON/i.test(detail))
      return { from: 0, to: 0, message: `not valid JSON: ${detail}` };
    const { line, column } = lineAndColumn(text, text.length);
    const message = `line ${line}, column ${column}: the text ends before the document is complete`;
    return { ...end, message };
  }
  let code: string = printParseErrorCode(first.error);
  // jsonc-parser reports a raw line break inside a string as the end of the string's text.
  const lineBreak = code === 'UnexpectedEndOfString' && /[\r\n]/.test(text.slice(first.offset));
  if (lineBreak) code = 'LineBreakInString';
  const { line, column } = lineAndColumn(text, first.offset);
  return {
    from: first.offset,
    to: Math.min(text.length, first.offset + first.length),
    message: `line ${line}, column ${column}: ${FRIENDLY[code] ?? code}`,
  };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

interface PathLink {
  parent: PathLink | undefined;
  key: string | number;
}

function pathOf(link: PathLink | undefined): (string | number)[] {
  const out: (string | number)[] = [];
  for (let l = link; l; l = l.parent) out.push(l.key);
  return out.reverse();
}

// Iterative on purpose: a hostile file nested thousands deep must not overflow the stack here.
function sanitize(root: unknown): JsonTextResult {
  const stripped: string[] = [];
  const stack: { value: unknown; depth: number; at: PathLink | undefined }[] = [
    { value: root, depth: 0, at: undefined },
  ];
  while (stack.length > 0) {
    const { value, depth, at } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) {
      // The path itself would be hundreds of segments: name where it starts instead.
      const start = formatJsonPath(pathOf(at).slice(0, 4));
      return {
        ok: false,
        error: `${start}…: nested more than ${MAX_DEPTH} levels deep; no flow needs that`,
      };
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        stack.push({ value: value[i], depth: depth + 1, at: { parent: at, key: i } });
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (RESERVED_KEYS.includes(key)) {
        delete record[key];
        stripped.push(formatJsonPath([...pathOf(at), key]));
        continue;
      }
      stack.push({ value: record[key], depth: depth + 1, at: { parent: at, key } });
    }
  }
  const warnings = stripped
    .slice(0, 5)
    .map((p) => `${p}: removed, since a key named like this could change how objects behave`);
  if (stripped.length > 5) warnings.push(`and ${stripped.length - 5} more such keys removed`);
  return { ok: true, value: root, warnings };
}
