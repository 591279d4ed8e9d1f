import { loadExamples } from './loadExamples.ts';

// Bundled at build time; read and validated once, when the module loads.
const exampleFiles = import.meta.glob<string>('../examples/*.json', {
  eager: true,
  query: '?raw',
  import: 'default',
});

/** The example files, each parsed and validated. */
export const examples = loadExamples(exampleFiles);

/** The example flows, for a new workspace. */
export const exampleFlows = examples.flatMap((e) => (e.kind === 'flow' ? [e.flow] : []));
