import { readFile, stat } from 'node:fs/promises';
import { MAX_TEXT_LENGTH } from '../../shared/jsonText.ts';

/** Reads a file named on the command line, or says in one line why it cannot. */
export async function readInput(path: string): Promise<{ text: string } | { error: string }> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return { error: `${path}: is a folder, not a file` };
    // Checked before reading so that a huge file is refused without filling memory.
    if (info.size > MAX_TEXT_LENGTH * 4)
      return { error: `${path}: the file is too large to be a flow` };
    return { text: await readFile(path, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { error: `${path}: no such file` };
    if (code === 'EACCES') return { error: `${path}: permission denied` };
    return { error: `${path}: cannot be read (${code ?? String(e)})` };
  }
}
