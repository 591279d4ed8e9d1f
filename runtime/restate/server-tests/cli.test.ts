import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from '../../../scripts/restateServer.ts';
import { registerEndpoint } from '../endpoint.ts';
import { flow, flowProcess, uniquePrefix, until } from './ingress.ts';

const approval = (id: string) => ({
  format: 'flow/1',
  id,
  nodes: [
    { id: 'start', kind: 'start' },
    {
      id: 'approve',
      kind: 'continue-after',
      on: [
        {
          id: 'ok',
          human: { prompt: 'Approve?', fields: [{ name: 'approved', type: 'boolean' }] },
          into: 'decision',
        },
        { id: 'paid', event: `${id}.paid`, into: 'payment' },
      ],
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'approve' },
    { id: 'e2', from: 'approve', to: 'done' },
  ],
});

describe('flow serve, deploy, start, event, human, status against a Restate server', () => {
  const { ingressUrl, adminUrl, endpointUrl } = inject('restate');
  const at = ['--ingress', ingressUrl];

  it('drives processes from the shell as docs/restate.md shows', async () => {
    const p = uniquePrefix('cli');
    const file = join(mkdtempSync(join(tmpdir(), 'wakeflow-cli-')), 'approval.json');
    writeFileSync(file, JSON.stringify(approval(`${p}order`)));
    const deployed = await flow(['deploy', file, ...at]);
    expect(deployed.code).toBe(0);
    expect(JSON.parse(deployed.out[0]!)).toEqual([
      expect.stringMatching(new RegExp(`^${p}order [0-9a-f]{64}$`)),
    ]);
    const started = await flow([
      'start',
      `${p}order`,
      '--as',
      `${p}a`,
      '--context',
      '{"n":1}',
      ...at,
    ]);
    expect(JSON.parse(started.out[0]!)).toMatchObject({ id: `${p}a`, status: 'waiting' });
    await flow(['start', `${p}order`, '--as', `${p}b`, '--share-context-with', `${p}a`, ...at]);
    const human = await flow(['human', `${p}a`, 'approve', '{"approved":true}', ...at]);
    expect(JSON.parse(human.out[0]!)).toMatchObject({ status: 'done' });
    const event = await until(
      () => flow(['event', `${p}order.paid`, '{"eur":5}', ...at]),
      (r) => r.code === 0 && JSON.parse(r.out[0]!).delivered === 1,
    );
    expect(JSON.parse(event.out[0]!)).toEqual({ delivered: 1 });
    const status = await flow(['status', `${p}b`, ...at]);
    expect(JSON.parse(status.out[0]!)).toMatchObject({
      status: 'done',
      visits: { start: 1, approve: 1, done: 1 },
      context: { n: 1, decision: { approved: true }, payment: { eur: 5 } },
    });
    const all = JSON.parse((await flow(['status', ...at])).out[0]!);
    expect(all[`${p}a`]).toEqual({ flow: `${p}order`, status: 'done', error: null });
    const refused = await flow(['resume', `${p}a`, ...at]);
    expect(refused).toEqual({
      out: [],
      err: [`resume: process "${p}a" is done, not stopped`],
      code: 1,
    });
  });

  it('serves and registers itself, replacing a live endpoint only with --replace, and stops on SIGTERM', async () => {
    const port = await freePort();
    const serve = (extra: string[]) =>
      flowProcess(['serve', '--port', String(port), '--admin', adminUrl, ...extra]);
    // The tests' own endpoint answers: without --replace, serve refuses to take its place.
    const refused = serve([]);
    let err = '';
    refused.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((r) => refused.once('exit', r))).toBe(1);
    expect(err).toContain(
      `serve: wakeflow's services are registered to ${endpointUrl}/, which still answers; give --replace to replace it`,
    );
    const child = serve(['--replace']);
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      expect(line).toBe(
        `wakeflow endpoint on http://127.0.0.1:${port}, registered with ${adminUrl}, replacing ${endpointUrl}/`,
      );
      const p = uniquePrefix('serve');
      writeFileSync(join(tmpdir(), `${p}.json`), JSON.stringify(approval(`${p}f`)));
      expect((await flow(['deploy', join(tmpdir(), `${p}.json`), ...at])).code).toBe(0);
      const started = await flow(['start', `${p}f`, '--as', `${p}a`, ...at]);
      expect(JSON.parse(started.out[0]!)).toMatchObject({ status: 'waiting' });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // The tests' own endpoint takes the services back for the files that follow.
      await registerEndpoint(adminUrl, endpointUrl, { replace: true });
    }
  });
});
