import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildPage } from './browser/serve.ts';

/**
 * 6. The built app's JavaScript: initial (the entry chunk and every chunk it imports
 * statically, transitively: what the page loads before it can run) and lazy (every other
 * chunk, loaded by a dynamic `import()` when used), raw and gzip (zlib, level 9 as servers
 * precompress). From Vite's manifest of a production build of the app as `vite build` makes it.
 */

export interface ChunkSize {
  file: string;
  bytes: number;
  gzip: number;
}

export interface BundleResult {
  initial: { bytes: number; gzip: number; chunks: ChunkSize[] };
  lazy: { bytes: number; gzip: number; chunks: ChunkSize[] };
  css: { bytes: number; gzip: number };
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Builds the app into `outDir` (which the canvas benchmark then serves) and sizes it. */
export async function bundleBench(
  outDir: string,
  log: (line: string) => void,
): Promise<BundleResult> {
  log('bundle: building the app …');
  await buildPage({
    root: ROOT,
    outDir,
    configFile: join(ROOT, 'vite.config.ts'),
    manifest: true,
  });
  const manifest = JSON.parse(
    readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;

  const size = (file: string): ChunkSize => {
    const content = readFileSync(join(outDir, file));
    return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
  };
  const initialKeys = new Set<string>();
  const visit = (key: string) => {
    if (initialKeys.has(key)) return;
    initialKeys.add(key);
    for (const k of manifest[key]?.imports ?? []) visit(k);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);

  const initialFiles = new Set([...initialKeys].map((k) => manifest[k]!.file));
  const jsFiles = new Set(
    Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith('.js')),
  );
  const cssFiles = new Set(Object.values(manifest).flatMap((c) => c.css ?? []));
  const sum = (chunks: ChunkSize[]) => ({
    bytes: chunks.reduce((a, c) => a + c.bytes, 0),
    gzip: chunks.reduce((a, c) => a + c.gzip, 0),
    chunks,
  });
  const initial = sum([...jsFiles].filter((f) => initialFiles.has(f)).map(size));
  const lazy = sum([...jsFiles].filter((f) => !initialFiles.has(f)).map(size));
  const css = sum([...cssFiles].map(size));
  return { initial, lazy, css: { bytes: css.bytes, gzip: css.gzip } };
}
