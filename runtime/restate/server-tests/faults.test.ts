import { describe, expect, it } from 'vitest';
import type { LoadFigures } from '../../../bench/restate/loadRun.ts';
import {
  clusterNodeKilled,
  endpointKilled,
  serverKilled,
  type Load,
} from '../../../bench/restate/faultRuns.ts';
import { startServe } from '../../../bench/restate/serveProcess.ts';
import { freePort, removeDataDir, startRestateNode } from '../../../scripts/restateServer.ts';
import { startTestServer } from '../../calls/fixtures/testServer.ts';
import { DEFAULT_PER_ORIGIN } from '../../calls/originLimiter.ts';
import { IngressClient } from '../ingressClient.ts';
import { uniquePrefix, until } from './ingress.ts';

// Processes in shared contexts of 10, looping on 1 s timers until each context's total is
// reached, with a fault in the middle. Sized to keep npm test within minutes on two cores; the
// same runs at 100 processes are `npm run bench:restate` (figures in docs/restate.md).
const load = (name: string, processes: number, total: number): Load => ({
  prefix: uniquePrefix(name),
  processes,
  perContext: 10,
  total,
  faultAfterMs: 1500,
  deadlineMs: 300_000,
});

function check(name: string, figures: LoadFigures, { processes, total }: Load) {
  console.log(`restate fault run, ${name}: ${JSON.stringify(figures)}`);
  expect(figures).toMatchObject({ done: processes, notFinished: 0, lost: 0, repeated: 0 });
  expect(figures.wakes).toBeGreaterThanOrEqual((processes / 10) * total);
}

describe('faults under load: no committed step lost, none run twice', () => {
  it('the endpoint is killed mid-run and started again', { timeout: 400_000 }, async () => {
    const l = load('endpoint', 40, 12);
    check('endpoint killed', await endpointKilled(l), l);
  });

  it(
    'the server is killed mid-run and started on its data directory',
    { timeout: 400_000 },
    async () => {
      const l = load('server', 40, 12);
      check('server killed', await serverKilled(l), l);
    },
  );

  it('one node of a three-node cluster is killed mid-run', { timeout: 400_000 }, async () => {
    const l = load('cluster', 20, 8);
    check('one of three nodes killed', await clusterNodeKilled(l), l);
  });
});

/** A flow whose one call is held by the test server (`/slow`) until the test lets it answer. */
const heldCall = (id: string, origin: string) => ({
  format: 'flow/1',
  id,
  nodes: [
    { id: 'start', kind: 'start' },
    {
      id: 'charge',
      kind: 'continue-after',
      on: [
        {
          id: 'answered',
          into: 'answer',
          call: { method: 'POST', url: `'${origin}/slow'`, body: '{ "n": n }', timeout: 'PT2M' },
        },
      ],
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'charge' },
    { id: 'e2', from: 'charge', to: 'done', trigger: 'answered' },
  ],
});

/** Resolves once `held` requests wait at `/slow`, or fails after `ms` (a hang guard). */
const held = (server: { slowHeld(n: number): Promise<void> }, count: number, ms = 60_000) =>
  Promise.race([
    server.slowHeld(count),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`fewer than ${count} calls came in ${ms} ms`)), ms),
    ),
  ]);

describe('faults while calls are in flight (docs/restate.md#calls)', () => {
  it(
    'the endpoint is killed with every call sent and unanswered: each is sent again with its key, and every outcome arrives once',
    { timeout: 300_000 },
    async () => {
      // As many as the endpoint sends to one origin at once, so that all are out when it dies.
      const N = DEFAULT_PER_ORIGIN;
      const p = uniquePrefix('callfault');
      const server = await startTestServer();
      const node = await startRestateNode();
      const port = await freePort();
      const allow = ['--allow-origin', server.origin];
      let endpoint = await startServe(port, node.adminUrl, allow);
      try {
        const api = new IngressClient(node.ingressUrl);
        expect((await api.deploy(JSON.stringify(heldCall(`${p}pay`, server.origin)))).ok).toBe(
          true,
        );
        const ids = Array.from({ length: N }, (_, i) => `${p}${i}`);
        for (const [i, id] of ids.entries())
          expect((await api.start(id, { flow: `${p}pay`, context: { n: i } })).ok).toBe(true);
        // Every attempt is out and held: the endpoint dies before any answer reaches it.
        await held(server, N);
        await endpoint.kill();
        // Answered into connections that died with the endpoint: nobody hears these.
        server.releaseSlow();
        endpoint = await startServe(port, node.adminUrl, allow);
        // Restate replays each invocation: an attempt whose result it never journaled is sent again.
        await held(server, N);
        server.releaseSlow();
        const statuses = await Promise.all(
          ids.map((id) =>
            until(
              () => api.status(id),
              (s) => s.ok && s.value.status === 'done',
              { tries: 300, everyMs: 200 },
            ),
          ),
        );
        const keys = new Map<string, number[]>();
        for (const r of server.requests) {
          const key = String(r.headers['idempotency-key']);
          keys.set(key, [...(keys.get(key) ?? []), (JSON.parse(r.body) as { n: number }).n]);
        }
        // One key per process, carried by its first request and by every repeat: a repeat with a
        // new key would be a second charge to the server.
        expect(keys.size).toBe(N);
        for (const [key, ns] of keys) {
          expect(ns.length, key).toBeGreaterThanOrEqual(2);
          expect(new Set(ns).size, key).toBe(1);
        }
        for (const [i, s] of statuses.entries()) {
          if (!s.ok) throw new Error(s.error);
          // 0 lost: the outcome reached its process, as the one attempt it counted.
          expect(s.value).toMatchObject({
            status: 'done',
            context: { n: i, answer: { ok: true, status: 200, body: { slow: true }, attempts: 1 } },
          });
          const journal = await api.journal(ids[i]!);
          if (!journal.ok) throw new Error(journal.error);
          const types = journal.value.map((e) => (e as { type: string }).type);
          expect(types.filter((t) => t === 'call-attempt')).toHaveLength(1);
          expect(types.filter((t) => t === 'done')).toHaveLength(1);
        }
      } finally {
        await endpoint.kill();
        await node.kill();
        removeDataDir(node.baseDir);
        await server.close();
      }
    },
  );
});
