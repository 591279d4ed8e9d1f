import { ExampleList } from './ExampleList.tsx';
import { examples } from './examples.ts';
import { ProcessPanel } from './panels/ProcessPanel.tsx';
import { SaveWarning } from './panels/SaveWarning.tsx';

export function App() {
  return (
    <main>
      <h1>wakeflow</h1>
      <SaveWarning />
      <p className="lead">
        The designer canvas is coming. Until then, here are the example flows, each checked as it
        would be before a process starts, and the processes of your workspace, kept in this browser
        and woken on time.
      </p>
      <ProcessPanel />
      <ExampleList entries={examples} />
    </main>
  );
}
