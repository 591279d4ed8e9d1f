import type { Flow } from '../shared/schema.ts';
import { validateFlow, type Problem } from '../shared/validateFlow.ts';
import { readExamples } from './readExamples.ts';

/** One row of the example list: a flow with its problems, or a file that could not be read. */
export type ExampleEntry =
  | { kind: 'flow'; key: string; file: string; flow: Flow; problems: Problem[] }
  | { kind: 'unreadable'; key: string; file: string; errors: string[] };

/**
 * Parses every file (path to text) and validates each flow against all the flows read, so that a
 * sub-flow may live in another file. Entries come in file-name order, flows in file order.
 */
export function loadExamples(files: Readonly<Record<string, string>>): ExampleEntry[] {
  const parsed = readExamples(files);

  const flows = new Map<string, Flow>();
  for (const { result } of parsed) {
    if (result.ok) for (const flow of result.flows) flows.set(flow.id, flow);
  }

  return parsed.flatMap(({ file, result }): ExampleEntry[] =>
    result.ok
      ? result.flows.map((flow, index) => ({
          kind: 'flow',
          key: `${file}#${index}`,
          file,
          flow,
          problems: validateFlow(flow, { flows }),
        }))
      : [{ kind: 'unreadable', key: file, file, errors: result.errors }],
  );
}
