import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenCitations, citationsIn, slugOf } from './docLinks.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The tracked text files of the tree, by path from the root (git's list: no node_modules), but
 * this check's own two, whose examples of broken citations are broken on purpose.
 */
function trackedTexts(): { path: string; text: string }[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((p) => /\.(ts|tsx|mjs|js|md|json|css|html)$/.test(p) && existsSync(root + p))
    .filter((p) => !p.startsWith('build/docLinks.'));
  return paths.map((path) => ({ path, text: readFileSync(root + path, 'utf8') }));
}

const read = (file: string) =>
  existsSync(root + file) ? readFileSync(root + file, 'utf8') : undefined;

describe('docs cited in the tree exist, with the headings cited (docs/architecture.md#conventions)', () => {
  const files = trackedTexts();

  it('every docs/NAME.md#anchor, and every #anchor link between docs, names a heading there', () => {
    const citations = files.flatMap(({ path, text }) => citationsIn(path, text));
    // The tree does cite its docs, or this test reads nothing.
    expect(citations.length).toBeGreaterThan(50);
    expect(brokenCitations(citations, read)).toEqual([]);
  });

  it('no file names the contract by a file outside this repository', () => {
    const outside = ['FORMAT', 'DESIGN'].map((name) => `${name}.md`);
    const naming = files
      .filter(({ text }) => outside.some((name) => text.includes(name)))
      .map(({ path }) => path);
    expect(naming).toEqual([]);
  });
});

describe('the rules the check applies', () => {
  it("makes GitHub's anchors of headings", () => {
    expect(slugOf('The context, the snapshot and the signature')).toBe(
      'the-context-the-snapshot-and-the-signature',
    );
    expect(slugOf('`flow/1` and [links](x.md)')).toBe('flow1-and-links');
    const anchors = anchorsOf('# A\n## Calls\n```\n# not a heading\n```\n### Calls\n');
    expect([...anchors]).toEqual(['a', 'calls', 'calls-1']);
  });

  it('reports a broken anchor, a missing file and a bad link between docs, each where it is', () => {
    const docs: Record<string, string> = { 'docs/format.md': '# Format\n## Joins\n' };
    const citations = [
      ...citationsIn('runtime/x.ts', '// docs/format.md#joins, docs/format.md#join\n'),
      ...citationsIn('README.md', 'see [it](docs/gone.md#a)\n'),
      ...citationsIn('docs/other.md', '\n[j](format.md#joins) [k](#nowhere)\n'),
    ];
    expect(brokenCitations(citations, (f) => docs[f])).toEqual([
      'runtime/x.ts:1: docs/format.md#join: no heading makes this anchor',
      'README.md:1: docs/gone.md#a: no such file',
      'docs/other.md:2: docs/other.md#nowhere: no such file',
    ]);
  });
});
