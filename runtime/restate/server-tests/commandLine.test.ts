import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, RETRY_POLICY_ENV } from '../../../scripts/restateServer.ts';
import { registerEndpoint, serveEndpoint, type Endpoint } from '../endpoint.ts';
import { finished, flow, flowProcess, ingress, uniquePrefix, until } from './ingress.ts';

/** Two waits in a row, each answered by an event long before its 48 h timer. */
const twoWaits = (id: string) => ({
  format: 'flow/1',
  id,
  nodes: [
    { id: 'start', kind: 'start' },
    {
      id: 'first',
      kind: 'continue-after',
      on: [
        { id: 'a', event: `${id}.a` },
        { id: 'late', timer: 'PT48H' },
      ],
    },
    {
      id: 'second',
      kind: 'continue-after',
      on: [
        { id: 'b', event: `${id}.b` },
        { id: 'later', timer: 'PT48H' },
      ],
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'first' },
    { id: 'e2', from: 'first', to: 'second' },
    { id: 'e3', from: 'second', to: 'done' },
  ],
});

function flowFile(flowJson: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wakeflow-cl-')), 'flow.json');
  writeFileSync(file, JSON.stringify(flowJson));
  return file;
}

describe('the Restate command line: never applied twice, never silent, tidy', () => {
  const { ingressUrl, adminUrl, endpointUrl } = inject('restate');
  const at = ['--ingress', ingressUrl, '--admin', adminUrl];

  /** The admin API's SQL over the server's invocations. */
  async function query<T>(sql: string): Promise<T[]> {
    const response = await fetch(`${adminUrl}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: sql }),
    });
    expect(response.ok).toBe(true);
    return ((await response.json()) as { rows: T[] }).rows;
  }

  /** The journal of process `id`, as `flow journal ID` prints it. */
  async function journalOf(id: string): Promise<unknown[]> {
    return JSON.parse((await flow(['journal', id, ...at])).out[0]!) as unknown[];
  }

  /** The context of process `id`, as `flow status ID` reports it. */
  async function contextOf(id: string): Promise<unknown> {
    return (JSON.parse((await flow(['status', id, ...at])).out[0]!) as { context: unknown })
      .context;
  }

  // A test that takes the services over with an endpoint of its own gives them back.
  afterAll(() => registerEndpoint(adminUrl, endpointUrl, { replace: true }));

  it('a start given up while the endpoint is down, sent again with its key, runs once when it is back', async () => {
    const p = uniquePrefix('idem');
    const port = await freePort();
    let own: Endpoint = await serveEndpoint(port);
    await registerEndpoint(adminUrl, own.url, { replace: true });
    try {
      expect((await flow(['deploy', flowFile(twoWaits(`${p}f`)), ...at])).code).toBe(0);
      await own.close();
      const start = ['start', `${p}f`, '--as', `${p}a`, '--idempotency-key', `${p}key`, ...at];
      const first = await flow([...start, '--timeout', '1s']);
      expect(first.code).toBe(1);
      const queued =
        /^start: (the endpoint is unreachable \(.+\)|the endpoint did not answer within 1 s); invocation (inv_\w+) is queued and will run when it is back$/;
      expect(first.err[0]).toMatch(queued);
      expect(first.err[1]).toContain(`--idempotency-key ${p}key`);
      const invocation = queued.exec(first.err[0]!)![2]!;
      // Sent again with its key: the same invocation, not a second start.
      const again = await flow([...start, '--timeout', '1s']);
      expect(queued.exec(again.err[0]!)?.[2]).toBe(invocation);
      // The endpoint comes back while a third sending waits (no timeout reached): it answers.
      const waiting = flow([...start, '--timeout', '60s']);
      await until(
        () =>
          query<{ status: string }>(`SELECT status FROM sys_invocation WHERE id = '${invocation}'`),
        (rows) => rows[0]?.status === 'backing-off',
      );
      own = await serveEndpoint(port);
      const answered = await waiting;
      expect(answered.code).toBe(0);
      expect(JSON.parse(answered.out[0]!)).toMatchObject({ id: `${p}a`, status: 'waiting' });
      const journal = JSON.parse((await flow(['journal', `${p}a`, ...at])).out[0]!) as {
        type: string;
      }[];
      expect(journal.filter((e) => e.type === 'started')).toHaveLength(1);
      // Once more with the key: the first answer, and still one process started once.
      const late = await flow([...start, '--timeout', '10s']);
      expect(JSON.parse(late.out[0]!)).toEqual(JSON.parse(answered.out[0]!));
    } finally {
      await own.close();
    }
  });

  it('retries an unreachable endpoint at most a second apart, however long it was down', async () => {
    expect(RETRY_POLICY_ENV.RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL).toBe('1s');
    const port = await freePort();
    const own = await serveEndpoint(port);
    await registerEndpoint(adminUrl, own.url, { replace: true });
    await own.close();
    const p = uniquePrefix('retry');
    // Sent as the command line sends a change: the server accepts it without the endpoint.
    const sent = await fetch(`${ingressUrl}/process/${p}none/stop/send`, {
      method: 'POST',
      headers: { 'idempotency-key': `${p}key` },
    });
    const invocation = ((await sent.json()) as { invocationId: string }).invocationId;
    // By the default policy the eighth attempt would come more than a minute after the seventh.
    const rows = await until(
      () =>
        query<{ retry_count: number; next_retry_at: string | null }>(
          `SELECT retry_count, next_retry_at FROM sys_invocation WHERE id = '${invocation}'`,
        ),
      (r) => (r[0]?.retry_count ?? 0) >= 8 && r[0]?.next_retry_at != null,
      { tries: 200 },
    );
    expect(rows[0]!.retry_count).toBeGreaterThanOrEqual(8);
    // At most the policy's 1 s, and the server's jitter on it (a fraction of the interval).
    expect(Date.parse(rows[0]!.next_retry_at!) - Date.now()).toBeLessThanOrEqual(1500);
    expect((await flow(['cancel', invocation, ...at])).code).toBe(0);
  });

  it('keeps one scheduled wake per waiting process after 100 early wakes, none once done', async () => {
    await registerEndpoint(adminUrl, endpointUrl, { replace: true });
    const p = uniquePrefix('wakes');
    const api = ingress();
    expect((await flow(['deploy', flowFile(twoWaits(`${p}f`)), ...at])).code).toBe(0);
    const ids = Array.from({ length: 50 }, (_, i) => `${p}${i}`);
    for (const id of ids) expect((await api.start(id, { flow: `${p}f` })).ok).toBe(true);
    const contexts: string[] = [];
    for (const id of ids) {
      const s = await api.status(id);
      if (s.ok) contexts.push(s.value.contextId);
    }
    // A wake is a delayed call to the process's own tick, or to its context's waker once the
    // context is known to be shared (docs/restate.md#how-a-wake-an-event-and-a-flow-change-travel).
    const keys = (xs: string[]) => xs.map((x) => `'${x}'`).join(',');
    const scheduled = async () =>
      (
        await query<{ n: number }>(
          `SELECT count(*) AS n FROM sys_invocation WHERE status = 'scheduled' AND ((target_service_name = 'waker' AND target_service_key IN (${keys(contexts)})) OR (target_service_name = 'process' AND target_handler_name = 'tick' AND target_service_key IN (${keys(ids)})))`,
        )
      )[0]!.n;
    // 50 early wakes: each process moves to its second wait, with a new 48 h timer.
    expect(await api.event(`${p}f.a`)).toMatchObject({ ok: true, value: { delivered: 50 } });
    expect(await until(scheduled, (n) => n === 50)).toBe(50);
    // 50 more: every process is done, and no wake is left for it.
    expect(await api.event(`${p}f.b`)).toMatchObject({ ok: true, value: { delivered: 50 } });
    expect(await until(scheduled, (n) => n === 0)).toBe(0);
  });

  it('answers 404 for an unknown process, lists, pages, fixes a context and shows the flows', async () => {
    const p = uniquePrefix('cl');
    const unknown = await flow(['status', `${p}nobody`, ...at]);
    expect(unknown).toEqual({
      out: [],
      err: [`status: there is no process "${p}nobody"`],
      code: 1,
    });
    const status = await ingress().status(`${p}nobody`);
    expect(status).toMatchObject({ ok: false, status: 404 });
    expect(await ingress().control(`${p}nobody`, 'stop')).toMatchObject({ status: 404 });
    expect((await flow(['deploy', flowFile(twoWaits(`${p}f`)), ...at])).code).toBe(0);
    for (const n of [1, 2, 3])
      expect((await flow(['start', `${p}f`, '--as', `${p}${n}`, ...at])).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'wakeflow-value-'));
    writeFileSync(join(dir, 'value.json'), '{"eur": 12}');
    const set = await flow(['set-context', `${p}2`, 'price', `@${join(dir, 'value.json')}`, ...at]);
    expect(set.code).toBe(0);
    expect(set.err[0]).toMatch(/^set-context: idempotency key flow-/);
    const report = JSON.parse((await flow(['status', `${p}2`, ...at])).out[0]!);
    expect(report.context).toEqual({ price: { eur: 12 } });
    expect((await flow(['stop', `${p}3`, ...at])).code).toBe(0);
    // Pages of one, from the first of this test's processes on.
    const all = JSON.parse((await flow(['list', '--limit', '500', ...at])).out[0]!);
    const before =
      all.processes[all.processes.findIndex((x: { id: string }) => x.id === `${p}1`) - 1];
    const page = JSON.parse(
      (await flow(['list', '--limit', '1', ...(before ? ['--after', before.id] : []), ...at]))
        .out[0]!,
    );
    expect(page).toEqual({
      processes: [{ id: `${p}1`, status: 'waiting', due: expect.any(String) }],
      next: `${p}1`,
    });
    const stopped = JSON.parse(
      (await flow(['list', '--status', 'stopped', '--limit', '500', ...at])).out[0]!,
    );
    expect(stopped.processes.map((x: { id: string }) => x.id)).toContain(`${p}3`);
    expect(stopped.processes.every((x: { status: string }) => x.status === 'stopped')).toBe(true);
    const soon = JSON.parse(
      (await flow(['list', '--due-before', '2000-01-01T00:00:00Z', '--limit', '500', ...at]))
        .out[0]!,
    );
    expect(soon.processes.map((x: { id: string }) => x.id)).not.toContain(`${p}1`);
    const flows = JSON.parse((await flow(['flows', ...at])).out[0]!);
    expect(flows).toContainEqual({
      id: `${p}f`,
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      versions: [expect.stringMatching(/^[0-9a-f]{64}$/)],
    });
  });

  it('journal --follow prints each entry as it is appended and exits by itself once done', async () => {
    const p = uniquePrefix('follow');
    expect((await flow(['deploy', flowFile(twoWaits(`${p}f`)), ...at])).code).toBe(0);
    expect((await flow(['start', `${p}f`, '--as', `${p}a`, ...at])).code).toBe(0);
    const before = await journalOf(`${p}a`);
    const child = flowProcess(['journal', `${p}a`, '--follow', ...at]);
    const exited = finished(child);
    const lines: string[] = [];
    let arrived = () => {};
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      arrived();
    });
    /** Resolves once `n` lines have come; the guard fails the test rather than hang it. */
    const linesCome = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error(`${lines.length} of ${n} lines`)), 30_000);
        arrived = () => {
          if (lines.length < n) return;
          clearTimeout(guard);
          resolve();
        };
        arrived();
      });
    // What was there already, then the entries of the first event while the process waits on.
    await linesCome(before.length);
    expect(lines.map((l) => JSON.parse(l))).toEqual(before);
    expect((await flow(['event', `${p}f.a`, ...at])).code).toBe(0);
    await linesCome(before.length + 1);
    expect(JSON.parse(lines[before.length]!)).toMatchObject({
      type: 'woke',
      node: 'first',
      trigger: 'a',
    });
    expect(child.exitCode).toBeNull();
    // The second event ends the process: the follow prints the rest and exits of itself.
    expect((await flow(['event', `${p}f.b`, ...at])).code).toBe(0);
    expect((await exited).code).toBe(0);
    expect(lines.map((l) => JSON.parse(l))).toEqual(await journalOf(`${p}a`));
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'done' });
  });

  it('takes JSON on standard input (-) and refuses broken JSON there, changing nothing', async () => {
    const p = uniquePrefix('stdin');
    expect((await flow(['deploy', flowFile(twoWaits(`${p}f`)), ...at])).code).toBe(0);
    const started = await finished(
      flowProcess(['start', `${p}f`, '--as', `${p}a`, '--context', '-', ...at], '{"n": 1}'),
    );
    expect(started.code).toBe(0);
    expect(await contextOf(`${p}a`)).toEqual({ n: 1 });
    const set = await finished(
      flowProcess(['set-context', `${p}a`, 'price', '-', ...at], '{"eur": 12}'),
    );
    expect(set.code).toBe(0);
    expect(await contextOf(`${p}a`)).toEqual({ n: 1, price: { eur: 12 } });
    // Broken: refused before anything is sent, with where it breaks.
    const broken = await finished(
      flowProcess(['set-context', `${p}a`, 'price', '-', ...at], '{"eur": '),
    );
    // One line, and no idempotency key: nothing was sent that could still be applied.
    expect(broken).toEqual({
      out: [],
      err: [expect.stringMatching(/^VALUE: line 1, column \d+: expected a value$/)],
      code: 1,
    });
    const noEvent = await finished(flowProcess(['event', `${p}f.a`, '-', ...at], 'nope'));
    expect(noEvent).toEqual({
      out: [],
      err: ['PAYLOAD: line 1, column 1: unexpected token'],
      code: 1,
    });
    expect(await contextOf(`${p}a`)).toEqual({ n: 1, price: { eur: 12 } });
    expect((await flow(['status', `${p}a`, ...at])).out[0]).toContain('"waiting"');
  });

  it('takes a 300 kB value, past what a shell argument holds, on standard input and as @FILE', async () => {
    const p = uniquePrefix('large');
    expect((await flow(['deploy', flowFile(twoWaits(`${p}f`)), ...at])).code).toBe(0);
    expect((await flow(['start', `${p}f`, '--as', `${p}a`, ...at])).code).toBe(0);
    const big = { text: 'x'.repeat(300_000) };
    const piped = await finished(
      flowProcess(['set-context', `${p}a`, 'big', '-', ...at], JSON.stringify(big)),
    );
    expect(piped.code).toBe(0);
    expect(await contextOf(`${p}a`)).toEqual({ big });
    const file = join(mkdtempSync(join(tmpdir(), 'wakeflow-big-')), 'big.json');
    const other = { text: 'y'.repeat(300_000) };
    writeFileSync(file, JSON.stringify(other));
    expect((await flow(['set-context', `${p}a`, 'other', `@${file}`, ...at])).code).toBe(0);
    expect(await contextOf(`${p}a`)).toEqual({ big, other });
  });

  it('--help names @FILE and - wherever a command takes JSON', async () => {
    for (const command of ['start', 'event', 'human', 'set-context']) {
      const help = await flow([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.out.join('\n')).toContain("@FILE (a file's text) or - (standard input)");
    }
  });
});
