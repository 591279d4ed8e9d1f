import { parseFlowFile, type ParseResult } from '../shared/parseFlowFile.ts';

/** Each example file (path to text) parsed, in file-name order. */
export function readExamples(
  files: Readonly<Record<string, string>>,
): { file: string; result: ParseResult }[] {
  return Object.entries(files)
    .map(([path, text]) => ({ file: fileName(path), result: parseFlowFile(text) }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
