import { MAX_TEXT_LENGTH, parseJsonText } from '../../shared/jsonText.ts';
import { readInput } from '../command/readInput.ts';

/** Standard input, all of it, refused past the size of the largest file the command line reads. */
async function readStdin(): Promise<{ text: string } | { error: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TEXT_LENGTH * 4) return { error: 'standard input is too large' };
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

/**
 * A JSON argument (`--context`, PAYLOAD, INPUT, VALUE): inline, `@FILE` for a file's text, or
 * `-` for standard input, since a shell refuses arguments past about 128 kB. The value, or the
 * located reason it is not JSON, named after the argument.
 */
export async function jsonArgument(
  name: string,
  text: string,
): Promise<{ value: unknown } | { error: string }> {
  let source = text;
  if (text === '-' || text.startsWith('@')) {
    const read = text === '-' ? await readStdin() : await readInput(text.slice(1));
    if ('error' in read) return { error: `${name}: ${read.error}` };
    source = read.text;
  }
  const parsed = parseJsonText(source);
  return parsed.ok ? { value: parsed.value } : { error: `${name}: ${parsed.error}` };
}
