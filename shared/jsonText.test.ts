import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem, MAX_TEXT_LENGTH, parseJsonText } from './jsonText.ts';

/** The text a problem covers, and the text before it. */
function at(text: string) {
  const p = jsonSyntaxProblem(text)!;
  return { before: text.slice(0, p.from), marked: text.slice(p.from, p.to), message: p.message };
}

describe('jsonSyntaxProblem: where a JSON field marks its error', () => {
  it('marks the token that breaks the document, where JSON.parse of Chromium names no position', () => {
    // V8's message for these is "Unexpected token ']', ..." with no position in it.
    expect(at('[1,]')).toMatchObject({ before: '[1,', marked: ']' });
    expect(at('{"x": tru}')).toMatchObject({ before: '{"x": ', marked: 'tru' });
  });

  it('marks a trailing comma’s closing brace, on the line it is on', () => {
    const text = '{\n  "a": 1,\n}';
    expect(at(text)).toMatchObject({ before: '{\n  "a": 1,\n', marked: '}' });
    expect(at(text).message).toMatch(/^line 3, column 1: /);
  });

  it('says what the form says when it refuses the text (parseJsonText), so the two agree', () => {
    for (const text of ['[1,]', '{"a" 1}', "{'a': 1}", '{"a": "b\nc"}', '[1, 2', '{} x']) {
      const refused = parseJsonText(text);
      expect(refused.ok).toBe(false);
      expect(jsonSyntaxProblem(text)?.message).toBe(!refused.ok && refused.error);
    }
  });

  it('marks a document cut short at its end', () => {
    const text = '{"a": [1, 2';
    const p = jsonSyntaxProblem(text)!;
    expect(p.from).toBeGreaterThanOrEqual(text.length - 1);
    expect(p.to).toBeLessThanOrEqual(text.length);
  });

  it('counts a byte order mark in the offsets, as the editor holding it does', () => {
    const text = '\ufeff[1,]';
    const p = jsonSyntaxProblem(text)!;
    expect(text.slice(p.from, p.to)).toBe(']');
  });

  it('marks nothing for valid, empty or too large text (the form says what is wrong with those)', () => {
    expect(jsonSyntaxProblem('{"a": [1, {"b": null}]}')).toBeUndefined();
    expect(jsonSyntaxProblem('  \n ')).toBeUndefined();
    expect(jsonSyntaxProblem('[' + ' '.repeat(MAX_TEXT_LENGTH))).toBeUndefined();
  });

  it('survives hostile nesting: 100,000 open brackets are marked at their end, without a stack overflow', () => {
    const text = '['.repeat(100_000);
    const p = jsonSyntaxProblem(text);
    expect(p).toBeDefined();
    expect(p!.from).toBeLessThanOrEqual(text.length);
  });
});
