// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

// React, the DOM and IndexedDB stay out of the pure layers: shared/ is the format in code and
// runtime/engine/ must be a deterministic function of its inputs (FORMAT.md §1).
const uiAndStorage = ['react', 'react-dom', 'react-dom/client', '@xyflow/react', 'zustand', 'idb'];
const domGlobals = ['window', 'document', 'navigator', 'localStorage', 'indexedDB', 'location'];

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
    // web/ in layers (docs/architecture.md): no module reaches itself through its imports. Every
    // import in this project names its file (`./x.ts`), so Node's resolution finds each one.
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx'] })] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['shared/**/*.ts', 'runtime/engine/**/*.ts'],
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
    // The engine has no clock and no randomness: the supervisor passes time in.
    files: ['runtime/engine/**/*.ts'],
    ignores: ['runtime/engine/**/*.test.ts'],
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
