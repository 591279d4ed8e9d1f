import { ExampleList } from './ExampleList.tsx';
import { loadExamples } from './loadExamples.ts';

// Bundled at build time; read and validated once, when the module loads.
const exampleFiles = import.meta.glob<string>('../examples/*.json', {
  eager: true,
  query: '?raw',
  import: 'default',
});
const examples = loadExamples(exampleFiles);

export function App() {
  return (
    <main>
      <h1>wakeflow</h1>
      <p className="lead">
        The designer canvas is coming. Until then, here are the example flows, each checked as it
        would be before a process starts.
      </p>
      <ExampleList entries={examples} />
    </main>
  );
}
