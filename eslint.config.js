// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

// React, the DOM and IndexedDB stay out of the pure layers: shared/ is the format in code and
// runtime/engine/ must be a deterministic function of its inputs (docs/format.md#flows).
const uiAndStorage = ['react', 'react-dom', 'react-dom/client', '@xyflow/react', 'zustand', 'idb'];
const domGlobals = ['window', 'document', 'navigator', 'localStorage', 'indexedDB', 'location'];

// web/'s layers (docs/architecture.md), one direction: the entry and shell, then the features,
// then the stores and services, then the runtime's client, and ui/ (the design system) under
// all. Each folder below names the web folders it may import; the others are refused.
const webFolders = ['shell', 'designer/ui', 'canvas', 'panels', 'inspector', 'workspace'];
const webLayers = {
  'web/ui': [],
  'web/runtime': [],
  'web/state': ['runtime'],
  'web/designer': ['runtime', 'state', 'ui'],
  'web/workspace': ['designer', 'runtime', 'state', 'ui'],
  'web/inspector': ['designer', 'runtime', 'state', 'ui', 'workspace'],
  'web/canvas': ['designer', 'inspector', 'runtime', 'state', 'ui'],
  'web/panels': ['designer', 'inspector', 'runtime', 'state', 'ui', 'workspace'],
  'web/designer/ui': [
    'canvas',
    'designer',
    'inspector',
    'panels',
    'runtime',
    'state',
    'ui',
    'workspace',
  ],
};
// No store is a module's singleton (docs/architecture.md, "web/ in layers"): each is made by a
// factory (`createStore` of zustand/vanilla) and provided through React context, read with
// `useStore`. zustand's `create` makes a store at module level, which every test then shares.
const noSingletonStore = [
  {
    name: 'zustand',
    importNames: ['create'],
    message:
      "A store is made per workbench with createStore from 'zustand/vanilla' and provided through context (web/state/storeContext.ts), not created at module level",
  },
  {
    name: 'zustand/traditional',
    message: "A store is made with createStore from 'zustand/vanilla' (web/state/storeContext.ts)",
  },
];
const layerRules = Object.entries(webLayers).map(([folder, allowed]) => {
  const self = folder.slice('web/'.length);
  const refused = [...webFolders, 'designer', 'state', 'runtime', 'ui'].filter(
    (f) => f !== self && !allowed.includes(f) && !(self === 'designer/ui' && f === 'designer'),
  );
  return {
    files: [`${folder}/**/*.{ts,tsx}`],
    // A folder's rule is its own: the one of a folder inside it is not applied to it.
    // Tests may reach across, to set up what they check.
    ignores: ['**/*.test.{ts,tsx}', ...(folder === 'web/designer' ? ['web/designer/ui/**'] : [])],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noSingletonStore,
          patterns: [
            {
              // designer/ui inside designer/ is named from there as ./ui/.
              group: refused.flatMap((f) =>
                f === 'designer/ui' ? ['**/designer/ui/**', './ui/**'] : [`**/${f}/**`],
              ),
              message: `${folder}/ may import only from ${allowed.join(', ') || 'itself'} of web/ (docs/architecture.md, "web/ in layers")`,
            },
          ],
        },
      ],
    },
  };
});

// The workbench reaches its runtime only through WorkbenchRuntime (web/runtime/workbenchRuntime.ts;
// docs/architecture.md, "The runtime interface"): a runtime elsewhere, a Restate server, has no
// supervisor nor store to hand the page. Outside web/runtime/, no file takes a value of their
// modules (types are plain data and stay allowed) nor reads a `.supervisor` or `.store` member.
// no-restricted-syntax, a rule no other block sets for web/, so a later block cannot replace it.
const RUNTIME_BOUNDARY =
  'The workbench reaches its runtime through WorkbenchRuntime (web/runtime/workbenchRuntime.ts), not its supervisor or store';
const runtimeInternals =
  '[source.value=/runtime.(supervisor.supervisor|store.(resilientStore|idbStore|memoryStore|openWorkspaceDb))[.]ts$/]';
const runtimeBoundary = {
  files: ['web/**/*.{ts,tsx}'],
  // Tests may reach the runtime itself, to set up what they check.
  ignores: ['web/runtime/**', '**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: `ImportDeclaration[importKind='value']${runtimeInternals} > :matches(ImportSpecifier[importKind='value'], ImportDefaultSpecifier, ImportNamespaceSpecifier)`,
        message: RUNTIME_BOUNDARY,
      },
      {
        selector: `:matches(ImportDeclaration[specifiers.length=0], ExportAllDeclaration, ExportNamedDeclaration[exportKind='value'])${runtimeInternals}`,
        message: RUNTIME_BOUNDARY,
      },
      { selector: `ImportExpression${runtimeInternals}`, message: RUNTIME_BOUNDARY },
      {
        selector: 'MemberExpression[property.name=/^(supervisor|store)$/]',
        message: RUNTIME_BOUNDARY,
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'playwright-report', 'test-results', '.scratch'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // No module reaches itself through its imports, anywhere in the tree (docs/architecture.md#boundaries);
    // a type-only import counts too: a circle of types is a circle of meaning. Every import in
    // this project names its file (`./x.ts`), so Node's resolution finds each one.
    files: ['**/*.{ts,tsx,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      // The files imported are parsed too (to follow their imports): TypeScript, as these are.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // zod is configured once, before any schema is made (shared/zod.ts): a module importing it
    // directly could make a schema first, and zod's probe for `new Function` breaks the CSP.
    files: ['**/*.{ts,tsx}'],
    ignores: ['shared/zod.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              allowTypeImports: true,
              message: "Import z from shared/zod.ts, which sets zod's jitless mode first.",
            },
          ],
        },
      ],
    },
  },
  // Every file of web/ (the entry and shell/ too, and tests); the layers' rules below repeat it.
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: noSingletonStore }] },
  },
  ...layerRules,
  runtimeBoundary,
  {
    files: ['shared/**/*.ts', 'runtime/engine/**/*.ts', 'runtime/expr/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: uiAndStorage, patterns: ['**/web/**', '**/store/**', '**/supervisor/**'] },
      ],
      'no-restricted-globals': ['error', ...domGlobals],
    },
  },
  {
    // The engine and its expressions have no clock and no randomness: the supervisor passes time
    // in, and a run's seeded values come from its snapshot.
    files: ['runtime/engine/**/*.ts', 'runtime/expr/**/*.ts'],
    ignores: ['runtime/engine/**/*.test.ts', 'runtime/expr/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'The engine has no clock.' },
        { object: 'Math', property: 'random', message: 'The engine is deterministic.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date']", message: 'The engine has no clock.' },
      ],
    },
  },
);
