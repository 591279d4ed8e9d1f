import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, importGraph } from './importCircles.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('no module circle, type-only imports included (docs/architecture.md#boundaries)', () => {
  it('the whole tree has none', () => {
    expect(circles(importGraph(ROOT))).toEqual([]);
  });

  it('finds a circle made of type imports alone, which the ESLint cycle rule skips', () => {
    const dir = mkdtempSync(join(tmpdir(), 'circles-'));
    mkdirSync(join(dir, 'runtime'));
    writeFileSync(
      join(dir, 'runtime/a.ts'),
      "import type { B } from './b.ts';\nexport type A = B;\n",
    );
    writeFileSync(join(dir, 'runtime/b.ts'), "export type { A as B } from './a.ts';\n");
    writeFileSync(
      join(dir, 'runtime/c.ts'),
      "import type { A } from './a.ts';\nexport type C = A;\n",
    );
    expect(circles(importGraph(dir, ['runtime']))).toEqual([['runtime/a.ts', 'runtime/b.ts']]);
  });
});
