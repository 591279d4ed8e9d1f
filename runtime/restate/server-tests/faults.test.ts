import { describe, expect, it } from 'vitest';
import type { LoadFigures } from '../../../bench/restate/loadRun.ts';
import {
  clusterNodeKilled,
  endpointKilled,
  serverKilled,
  type Load,
} from '../../../bench/restate/faultRuns.ts';
import { uniquePrefix } from './ingress.ts';

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
