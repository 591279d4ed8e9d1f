import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';

/** A temporary folder for a build, removed by `cleanup`. */
export function tempDir(label: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `wakeflow-bench-${label}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface BuildOptions {
  root: string;
  outDir: string;
  /** The app's own config (its React plugin), or none for the bench-only page. */
  configFile: string | false;
  manifest?: boolean;
}

/** A production build, as `vite build` makes it (quiet but for warnings). */
export async function buildPage(options: BuildOptions): Promise<void> {
  await build({
    root: options.root,
    configFile: options.configFile,
    logLevel: 'error',
    build: {
      outDir: options.outDir,
      emptyOutDir: true,
      manifest: options.manifest ?? false,
      reportCompressedSize: false,
    },
  });
}

/** Serves a build with Vite's `preview` on the loopback address. */
export async function serve(outDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await preview({
    configFile: false,
    root: outDir,
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 5191, strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not say where it listens');
  return { url, close: () => server.close() };
}
