import { looksLikeXml } from './looksLikeXml.ts';
import { createModdle, type El } from './moddle.ts';

/** Larger BPMN files are refused before they are parsed; the import takes files up to 4 MB. */
export const MAX_BPMN_LENGTH = 4 * 1024 * 1024;
/** Deeper element nesting is refused before parsing (modellers' files nest a dozen levels). */
export const MAX_BPMN_DEPTH = 256;

export type ReadResult =
  { ok: true; definitions: El; warnings: string[] } | { ok: false; errors: string[] };

const refused = (error: string): ReadResult => ({ ok: false, errors: [error] });

/**
 * Reads BPMN 2.0 XML into bpmn-moddle's `bpmn:Definitions`. Hostile text is refused with a
 * message, before any of it is parsed where that can be told: too long, too deeply nested, or
 * with a DOCTYPE (whose entities could expand or reach outside the file; BPMN needs none).
 */
export async function readBpmn(text: string): Promise<ReadResult> {
  if (text.length > MAX_BPMN_LENGTH) {
    const mb = (text.length / 1024 / 1024).toFixed(1);
    return refused(
      `the file is ${mb} MB; a BPMN file can be at most ${MAX_BPMN_LENGTH / 1024 / 1024} MB`,
    );
  }
  if (!looksLikeXml(text)) return refused('not XML: a BPMN file starts with "<"');
  if (/<!DOCTYPE/i.test(text)) {
    return refused(
      'the file declares a DOCTYPE; BPMN files need none, and its entities are not read',
    );
  }
  const depth = nestingProblem(text);
  if (depth) return refused(depth);
  let result: Awaited<ReturnType<ReturnType<typeof createModdle>['fromXML']>>;
  try {
    result = await createModdle().fromXML(text, 'bpmn:Definitions');
  } catch (e) {
    return refused(xmlError(e instanceof Error ? e.message : String(e)));
  }
  const warnings = result.warnings.slice(0, 20).map((w) => xmlError(w.message));
  if (result.warnings.length > 20) warnings.push(`and ${result.warnings.length - 20} more`);
  return { ok: true, definitions: result.rootElement, warnings };
}

/**
 * Why the elements nest too deeply, before a parser builds a tree of them. One pass over the
 * text, skipping comments, CDATA, declarations and quoted attribute values; never backtracks.
 */
function nestingProblem(text: string): string | undefined {
  let depth = 0;
  let i = text.indexOf('<');
  while (i !== -1 && i < text.length) {
    const skip = (close: string) => {
      const end = text.indexOf(close, i);
      return end === -1 ? text.length : end + close.length;
    };
    if (text.startsWith('<!--', i)) i = skip('-->');
    else if (text.startsWith('<![CDATA[', i)) i = skip(']]>');
    else if (text[i + 1] === '?' || text[i + 1] === '!') i = skip('>');
    else {
      const closing = text[i + 1] === '/';
      let j = i + 1;
      let quote: string | undefined;
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = undefined;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (closing) depth--;
      else if (text[j - 1] !== '/' && ++depth > MAX_BPMN_DEPTH) {
        return `elements are nested more than ${MAX_BPMN_DEPTH} levels deep; no BPMN diagram needs that many`;
      }
      i = j + 1;
    }
    i = text.indexOf('<', i);
  }
  return undefined;
}

/**
 * bpmn-moddle's messages ("unparsable content <x> detected\n\tline: 0\n\tcolumn: 5\n\tnested
 * error: closing tag mismatch") as one line, led by where (lines and columns counted from 1).
 */
function xmlError(message: string): string {
  const line = /line: (\d+)/.exec(message)?.[1];
  const column = /column: (\d+)/.exec(message)?.[1];
  const nested = /nested error: (.*)/.exec(message)?.[1];
  const first = message.split('\n')[0]!;
  const what = nested ? `${nested} (${first})` : first;
  if (line === undefined || column === undefined) return what;
  return `line ${Number(line) + 1}, column ${Number(column) + 1}: ${what}`;
}
