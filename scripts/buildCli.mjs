// Compiles the `flow` command line into one file (run by `npm install` and `npm ci` through
// the `prepare` script), so that a call starts in milliseconds instead of compiling TypeScript
// first. Never fails the install: without the bundle, `npm run -s flow` runs the sources.
import { mkdirSync, writeFileSync } from 'node:fs';
import { BUNDLE_DIR, ROOT } from './cliBundle.mjs';

// `node scripts/buildCli.mjs [DIR]`: into DIR instead (the tests build a bundle of their own).
const dir = process.argv[2] ? `${process.argv[2].replace(/\/$/, '')}/` : BUNDLE_DIR;

try {
  const { build } = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['runtime/cli/main.ts'],
    outfile: `${dir}flow.mjs`,
    bundle: true,
    platform: 'node',
    // ES module builds first: jsonc-parser's CommonJS one is UMD, with requires esbuild cannot see.
    mainFields: ['module', 'main'],
    format: 'esm',
    target: 'node20',
    minify: true,
    // Less to parse at start-up; the names stay, so that an internal error still names its place.
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    // A CommonJS package inside an ES module bundle asks for `require`.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.startsWith('node_modules/'));
  writeFileSync(`${dir}inputs.json`, `${JSON.stringify(inputs)}\n`);
} catch (e) {
  process.stderr.write(
    `warning: the flow command line was not compiled (${e instanceof Error ? e.message : String(e)}); npm run -s flow runs its sources with tsx\n`,
  );
}
