import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BEGIN, END, PAGE, PerformancePageError, updatePerformancePage } from './readme.ts';

const meta = {
  date: '2026-12-01T00:00:00.000Z',
  commit: 'abc1234',
  node: 'v20.0.0',
  cpus: 2,
  load: [1.5, 2.5],
  chromium: null,
  seconds: 100,
};
const results = (goals: unknown) => JSON.stringify({ meta, goals });
const page = `# Title\n\nbefore\n\n${BEGIN}\nold figures\n${END}\n\nafter\n`;

describe('npm run bench:readme', () => {
  it(`writes ${PAGE}, which holds the one block, and the README none`, () => {
    const read = (path: string) =>
      readFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), 'utf8');
    const results = readFileSync(fileURLToPath(new URL('./results.json', import.meta.url)), 'utf8');
    expect(() => updatePerformancePage(read(PAGE), results)).not.toThrow();
    expect(read('README.md')).not.toContain(BEGIN);
  });

  it('replaces only what stands between the markers, with the goals of the run as a table', () => {
    const out = updatePerformancePage(
      page,
      results([
        { goal: 'fast', measured: '1 ms', met: true },
        { goal: 'a | b', measured: '9 s', met: false },
      ]),
    );
    expect(out.startsWith('# Title\n\nbefore\n\n')).toBe(true);
    expect(out.endsWith('\n\nafter\n')).toBe(true);
    expect(out).not.toContain('old figures');
    expect(out).toContain('(1 of 2 met)');
    expect(out).toContain('| fast | 1 ms | yes |');
    // A pipe in a goal would split its cell.
    expect(out).toContain('| a \\| b | 9 s | **no** |');
    expect(out).toContain('commit abc1234');
  });

  it('writes the same page when run twice on one result (the markers survive)', () => {
    const once = updatePerformancePage(page, results([]));
    expect(updatePerformancePage(once, results([]))).toBe(once);
  });

  it('refuses a results file that is not JSON, naming the file', () => {
    expect(() => updatePerformancePage(page, '{"meta": ')).toThrow(
      /bench\/results\.json is not JSON/,
    );
  });

  it('refuses a partial or hostile results file, naming the field', () => {
    expect(() => updatePerformancePage(page, JSON.stringify({ meta }))).toThrow(/goals/);
    expect(() => updatePerformancePage(page, JSON.stringify([1, 2]))).toThrow(PerformancePageError);
    expect(() =>
      updatePerformancePage(page, JSON.stringify({ meta: { ...meta, load: 'high' }, goals: [] })),
    ).toThrow(/meta\.load/);
  });

  it('refuses a page without its block, or with two, and says what it needs', () => {
    expect(() => updatePerformancePage('# no block\n', results([]))).toThrow(/needs the line/);
    expect(() => updatePerformancePage(`${END}\n${BEGIN}\n`, results([]))).toThrow(
      /needs the line/,
    );
    expect(() => updatePerformancePage(page + page, results([]))).toThrow(/more than one/);
  });

  it('handles a huge results file (10,000 goals) without trouble', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      goal: `goal ${i}`,
      measured: `${i}`,
      met: i % 2 === 0,
    }));
    expect(updatePerformancePage(page, results(many))).toContain('(5000 of 10000 met)');
  });
});
