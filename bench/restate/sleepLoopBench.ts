// Issue 29.7: wakeflow on Restate beside a minimal hand-written Virtual Object doing the same
// sleep loop with the same SDK, on one local server, in the same run. Each runs `processes`
// processes of a loop that sleeps PT1S `passes` times (wakeflow: loadRun.ts's flow of a work
// node and a PT1S continue-after, on a context of its own; the object: a start that sends itself
// a `tick` one second later, each tick sending the next). Figures: processes started per second
// (32 clients at once), wakes per second from the first start until every process is done, and
// the lateness of each timer (when the wake ran against when it was due), its p99. Part of
// `npm run bench:restate`.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as restate from '@restatedev/restate-sdk';
import { registerEndpoint, serveEndpoint, serveHandler } from '../../runtime/restate/endpoint.ts';
import { IngressClient } from '../../runtime/restate/ingressClient.ts';
import { removeDataDir, startRestateNode } from '../../scripts/restateServer.ts';
import { loadFlow } from './loadRun.ts';

export interface LoopFigures {
  processes: number;
  passes: number;
  startsPerSecond: number;
  wakesPerSecond: number;
  /** How late a timer's wake ran, ms: median, p99 and the worst. */
  lateMs: { median: number; p99: number; max: number };
  /**
   * CPU time per wake (start included), ms: the Restate server's and this process's (the
   * endpoint and the bench's own clients), from its first start until its last process was done.
   * On a shared machine this, unlike wall time, does not move with what else runs.
   */
  cpuMsPerWake: { server: number; endpoint: number };
}

export interface SleepLoopResult {
  wakeflow: LoopFigures;
  handWritten: LoopFigures;
}

const NAME = 'benchSleeper';
const SELF = { name: NAME } as restate.VirtualObjectDefinition<
  typeof NAME,
  { tick: (ctx: restate.ObjectContext) => Promise<void> }
>;

/** The peer: what a Restate user writes for a loop that sleeps a second at a time. */
const handWritten = restate.object({
  name: NAME,
  handlers: {
    start: async (ctx: restate.ObjectContext, input: { passes: number }) => {
      const now = await ctx.date.now();
      ctx.set('passes', input.passes);
      ctx.set('count', 0);
      ctx.set('due', now + 1000);
      ctx.set('late', []);
      ctx.objectSendClient(SELF, ctx.key).tick(restate.rpc.sendOpts({ delay: 1000 }));
    },
    tick: async (ctx: restate.ObjectContext) => {
      const now = await ctx.date.now();
      const late = (await ctx.get<number[]>('late')) ?? [];
      late.push(now - ((await ctx.get<number>('due')) ?? now));
      ctx.set('late', late);
      const count = ((await ctx.get<number>('count')) ?? 0) + 1;
      ctx.set('count', count);
      if (count < ((await ctx.get<number>('passes')) ?? 0)) {
        ctx.set('due', now + 1000);
        ctx.objectSendClient(SELF, ctx.key).tick(restate.rpc.sendOpts({ delay: 1000 }));
      } else ctx.set('done', true);
    },
    report: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext) => ({
      done: (await ctx.get<boolean>('done')) ?? false,
      late: (await ctx.get<number[]>('late')) ?? [],
    })),
  },
});

async function inParallel<T>(items: T[], lanes: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/**
 * Waits until every process is done, asking as few as it can: they run the same loop and end in
 * about the order they started, so each round asks from the last started backwards and stops at
 * the first not done (one question a round until the last ones end, then one each). Asking every
 * pending process every round, 16 at once, was itself hundreds of invocations a second on the
 * two cores both sides are measured on, and more of them per wake the longer a side took.
 */
async function untilAllDone(
  ids: string[],
  isDone: (id: string) => Promise<boolean>,
  deadline: number,
  what: string,
) {
  const pending = [...ids];
  while (pending.length > 0) {
    if (Date.now() > deadline) throw new Error(`sleep loop: ${what} not done in time`);
    if (await isDone(pending.at(-1)!)) pending.pop();
    else await new Promise((r) => setTimeout(r, 250));
  }
}

/** CPU time so far, ms: the server's (from /proc, Linux) and this process's. */
interface CpuClock {
  read(): { server: number; endpoint: number };
}

function cpuClock(serverPid: number | undefined): CpuClock {
  const ticks = () => {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat: user and system time, in clock ticks (1/100 s).
      const fields = readFileSync(`/proc/${serverPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return NaN;
    }
  };
  return {
    read: () => {
      const own = process.cpuUsage();
      return { server: ticks(), endpoint: (own.user + own.system) / 1000 };
    },
  };
}

function figures(
  processes: number,
  passes: number,
  startSeconds: number,
  allSeconds: number,
  late: number[],
  cpu: { server: number; endpoint: number },
): LoopFigures {
  const wakes = processes * passes;
  return {
    processes,
    passes,
    startsPerSecond: Math.round(processes / startSeconds),
    wakesPerSecond: Math.round(wakes / allSeconds),
    lateMs: { median: quantile(late, 0.5), p99: quantile(late, 0.99), max: quantile(late, 1) },
    cpuMsPerWake: {
      server: Math.round((cpu.server / wakes) * 100) / 100,
      endpoint: Math.round((cpu.endpoint / wakes) * 100) / 100,
    },
  };
}

const spent = (clock: CpuClock, from: { server: number; endpoint: number }) => {
  const now = clock.read();
  return { server: now.server - from.server, endpoint: now.endpoint - from.endpoint };
};

async function runWakeflow(
  ingress: string,
  cpu: CpuClock,
  prefix: string,
  processes: number,
  passes: number,
) {
  const api = new IngressClient(ingress);
  const flow = `${prefix}loop`;
  // The fault runs' loop (a pass adds one to `total` and sleeps a second), on a context each.
  const deployed = await api.deploy(JSON.stringify(loadFlow(flow, passes)));
  if (!deployed.ok) throw new Error(deployed.error);
  const ids = Array.from({ length: processes }, (_, i) => `${prefix}w${i}`);
  const cpu0 = cpu.read();
  const t0 = performance.now();
  await inParallel(ids, 32, async (id) => {
    const started = await api.start(id, { flow, context: { total: 0 } });
    if (!started.ok) throw new Error(`${id}: ${started.error}`);
  });
  const startSeconds = (performance.now() - t0) / 1000;
  await untilAllDone(
    ids,
    async (id) => {
      const rest = await api.rest(id);
      return rest.ok && rest.value?.status === 'done';
    },
    Date.now() + 15 * 60_000,
    'wakeflow',
  );
  const allSeconds = (performance.now() - t0) / 1000;
  const used = spent(cpu, cpu0);
  // Each wake against its wait's due time: the `woke` entry's time, the `waited` one's plus 1 s.
  const late: number[] = [];
  await inParallel(ids, 16, async (id) => {
    const journal = await api.journal(id);
    if (!journal.ok) throw new Error(`${id}: ${journal.error}`);
    let waitedAt: number | undefined;
    for (const e of journal.value as { type: string; at: number }[]) {
      if (e.type === 'waited') waitedAt = e.at;
      if (e.type === 'woke' && waitedAt !== undefined) late.push(e.at - (waitedAt + 1000));
    }
  });
  return figures(processes, passes, startSeconds, allSeconds, late, used);
}

async function runHandWritten(
  ingress: string,
  cpu: CpuClock,
  prefix: string,
  processes: number,
  passes: number,
) {
  const call = async (key: string, handler: string, body?: unknown) => {
    const r = await fetch(`${ingress}/${NAME}/${key}/${handler}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? null),
    });
    if (!r.ok) throw new Error(`${NAME}/${key}/${handler}: ${r.status} ${await r.text()}`);
    // A handler that returns nothing answers with an empty body.
    const text = await r.text();
    return text === '' ? null : (JSON.parse(text) as unknown);
  };
  const keys = Array.from({ length: processes }, (_, i) => `${prefix}h${i}`);
  const cpu0 = cpu.read();
  const t0 = performance.now();
  await inParallel(keys, 32, async (key) => void (await call(key, 'start', { passes })));
  const startSeconds = (performance.now() - t0) / 1000;
  const reports = new Map<string, { done: boolean; late: number[] }>();
  await untilAllDone(
    keys,
    async (key) => {
      const report = (await call(key, 'report')) as { done: boolean; late: number[] };
      reports.set(key, report);
      return report.done;
    },
    Date.now() + 15 * 60_000,
    'the hand-written object',
  );
  const allSeconds = (performance.now() - t0) / 1000;
  const used = spent(cpu, cpu0);
  const late = [...reports.values()].flatMap((r) => r.late);
  return figures(processes, passes, startSeconds, allSeconds, late, used);
}

export async function sleepLoop(processes: number, passes: number): Promise<SleepLoopResult> {
  const node = await startRestateNode();
  const endpoint = await serveEndpoint(0);
  const peer = await serveHandler(restate.endpoint().bind(handWritten).http2Handler(), 0);
  try {
    await registerEndpoint(node.adminUrl, endpoint.url);
    // The peer's own deployment: registerEndpoint guards wakeflow's services, not others.
    const registered = await fetch(new URL('/deployments', node.adminUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: peer.url }),
    });
    if (!registered.ok) throw new Error(`the peer was not registered: ${await registered.text()}`);
    const prefix = `loop${Date.now().toString(36)}-`;
    // The peer first, then wakeflow: each alone on the server while it runs.
    const cpu = cpuClock(node.child.pid);
    const handWrittenFigures = await runHandWritten(
      node.ingressUrl,
      cpu,
      prefix,
      processes,
      passes,
    );
    const wakeflow = await runWakeflow(node.ingressUrl, cpu, prefix, processes, passes);
    return { wakeflow, handWritten: handWrittenFigures };
  } finally {
    await peer.close();
    await endpoint.close();
    await node.stop();
    removeDataDir(node.baseDir);
  }
}
