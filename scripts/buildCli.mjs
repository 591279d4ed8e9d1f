// Compiles the `flow` command line into one file (run by `npm install` and `npm ci` through
// the `prepare` script), so that a call starts in milliseconds instead of compiling TypeScript
// first. Never fails the install: without the bundle, `npm run -s flow` runs the sources.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { BUNDLE_DIR, ROOT } from './cliBundle.mjs';

// `node scripts/buildCli.mjs [DIR]`: into DIR instead (the tests build a bundle of their own).
const dir = process.argv[2] ? `${process.argv[2].replace(/\/$/, '')}/` : BUNDLE_DIR;

try {
  const { build } = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  // Chunks of an earlier build are named by their content: without this they would pile up.
  rmSync(`${dir}chunks`, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [{ in: 'runtime/cli/main.ts', out: 'flow' }],
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    // Each `import()` of the sources is a chunk of its own, loaded only by the command that asks
    // for it (runtime/cli/runCli.ts): start-up parses what one command runs, not the Restate SDK
    // (most of the code) or the BPMN reader.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    // ES module builds first: jsonc-parser's CommonJS one is UMD, with requires esbuild cannot see.
    mainFields: ['module', 'main'],
    format: 'esm',
    target: 'node20',
    // Less to parse at start-up. Not `keepNames`: it wraps every function made at run time in a
    // call that defines its name, which cost a step more than some of its work did.
    minify: true,
    metafile: true,
    logLevel: 'warning',
    // A CommonJS package inside an ES module bundle asks for `require`. The hashbang makes the
    // entry the package's `wakeflow` bin (npm pack builds it into dist/); on a chunk it is inert.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.startsWith('node_modules/'));
  writeFileSync(`${dir}inputs.json`, `${JSON.stringify(inputs)}\n`);
} catch (e) {
  process.stderr.write(
    `warning: the flow command line was not compiled (${e instanceof Error ? e.message : String(e)}); npm run -s flow runs its sources with tsx\n`,
  );
}
