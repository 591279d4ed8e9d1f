import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, RUNTIME_WORKER_POLICY, headerPolicyFor } from './csp.ts';

const out = mkdtempSync(join(tmpdir(), 'wakeflow-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the built app carries a Content-Security-Policy', () => {
  it('forbids inline script, eval and other origins, and the build needs neither', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");

    execFileSync(
      'npx',
      ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'],
      { stdio: 'pipe' },
    );
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    expect(meta?.[1]?.replaceAll('&#39;', "'")).toBe(CONTENT_SECURITY_POLICY);
    // No inline script in the page: every script is a file of the app.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // And nothing the app ships calls eval, which the policy would refuse (code that probes for
    // `Function` is checked at run time, in the browser test of the built app). A method of
    // that name (re2js's prefilters have `eval(input, pos)`) is no call of the global.
    const globalEval = /(?<![.\w$])eval\((?![\w$,\s]*\)\s*\{)/;
    expect('x=eval(code)').toMatch(globalEval);
    expect('a.eval(e,t);class P{eval(e,t){return 1}}').not.toMatch(globalEval);
    const js = readdirSync(join(out, 'assets')).filter((f) => f.endsWith('.js'));
    for (const file of js)
      expect(readFileSync(join(out, 'assets', file), 'utf8')).not.toMatch(globalEval);
    // The build names the runtime's worker as the header policy expects, and no other script
    // (the import worker, the step relay, the page's chunks) gets its policy.
    const workers = js.filter((f) => headerPolicyFor(`/assets/${f}`).includes('http: https:'));
    expect(workers).toHaveLength(1);
    expect(workers[0]).toMatch(/^runtimeWorker-/);
  }, 120_000);
});

describe('the header policy (vite preview)', () => {
  it('is the page’s, and no other origin may frame the app, which only a header can say', () => {
    for (const path of [
      '/',
      '/index.html',
      '/assets/index-abc123.js',
      '/assets/importWorker-x1.js',
    ])
      expect(headerPolicyFor(path)).toBe(`${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`);
    expect(CONTENT_SECURITY_POLICY).not.toContain('frame-ancestors');
  });

  it("rule: only the runtime worker's script may connect to other http(s) origins, where calls are sent", () => {
    expect(headerPolicyFor('/assets/runtimeWorker-Ab_9-x.js?v=1')).toBe(
      `${RUNTIME_WORKER_POLICY}; frame-ancestors 'none'`,
    );
    expect(RUNTIME_WORKER_POLICY).toContain("connect-src 'self' http: https:");
    // Everything else it keeps: no eval, scripts of the app only.
    expect(RUNTIME_WORKER_POLICY.replace(' http: https:', '')).toBe(CONTENT_SECURITY_POLICY);
    // A path that only looks like it does not get it.
    for (const path of [
      '/assets/runtimeWorker-x.js/../evil.js',
      '/x/assets/runtimeWorker-a.js',
      '/assets/runtimeWorker-a.json',
    ])
      expect(headerPolicyFor(path)).not.toContain('http: https:');
  });
});
