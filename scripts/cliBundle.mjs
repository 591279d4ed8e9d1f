// Where the compiled `flow` command line lives and whether it is as new as its sources. Plain
// JavaScript, so that Node runs it before anything is compiled (scripts/flow.mjs).
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Inside node_modules: ignored by git and the linters, and rebuilt by every `npm ci`. */
export const BUNDLE_DIR = `${ROOT}node_modules/.cache/wakeflow-cli/`;
export const BUNDLE = `${BUNDLE_DIR}flow.mjs`;
/** The project's source files the bundle was built from, relative to the root. */
export const INPUTS = `${BUNDLE_DIR}inputs.json`;

/**
 * Whether `bundle` exists and no file listed in `inputs` (paths relative to `root`) changed
 * after it was written. A source file added since is imported by one that changed, so the
 * check needs no walk over the tree; a file listed but gone makes it stale, as does anything
 * that cannot be read.
 */
export function isFresh(bundle = BUNDLE, inputs = INPUTS, root = ROOT) {
  try {
    const built = statSync(bundle).mtimeMs;
    const listed = JSON.parse(readFileSync(inputs, 'utf8'));
    if (!Array.isArray(listed) || listed.length === 0) return false;
    return listed.every((path) => statSync(`${root}${path}`).mtimeMs <= built);
  } catch {
    return false;
  }
}
