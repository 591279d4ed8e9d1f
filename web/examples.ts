import { readExamples } from './readExamples.ts';

// Bundled at build time; read once, when the module loads. They are validated by their tests
// (shared/validateFlow.test.ts) and, once opened, by the designer's live validation: the page
// does not load the checks to start.
const exampleFiles = import.meta.glob<string>('../examples/*.json', {
  eager: true,
  query: '?raw',
  import: 'default',
});

/** The example flows, for a new workspace. */
export const exampleFlows = readExamples(exampleFiles).flatMap(({ result }) =>
  result.ok ? result.flows : [],
);
