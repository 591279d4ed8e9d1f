import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import viteConfig from '../vite.config.ts';
import { CONTENT_SECURITY_POLICY } from './csp.ts';

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
  }, 120_000);
});

describe('the header policy (vite preview)', () => {
  it('is the page’s, and no other origin may frame the app, which only a header can say', () => {
    const header = viteConfig.preview?.headers?.['Content-Security-Policy'];
    expect(header).toBe(`${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`);
    expect(CONTENT_SECURITY_POLICY).not.toContain('frame-ancestors');
  });
});
