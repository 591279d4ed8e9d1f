import { FlowSummary } from './FlowSummary.tsx';
import type { ExampleEntry } from './loadExamples.ts';
import { UnreadableFile } from './UnreadableFile.tsx';

export function ExampleList({ entries }: { entries: readonly ExampleEntry[] }) {
  return (
    <ul className="example-list" aria-label="Example flows">
      {entries.map((entry) => (
        <li key={entry.key} className="example">
          {entry.kind === 'flow' ? (
            <FlowSummary file={entry.file} flow={entry.flow} problems={entry.problems} />
          ) : (
            <UnreadableFile file={entry.file} errors={entry.errors} />
          )}
        </li>
      ))}
    </ul>
  );
}
