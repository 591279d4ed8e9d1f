import type { IngressClient } from '../../runtime/restate/ingressClient.ts';

export interface LoadOptions {
  prefix: string;
  processes: number;
  /** Processes per shared context. */
  perContext: number;
  /** Each context's loop ends once its total reaches this. */
  total: number;
  /** Called once, `faultAfterMs` after the last process started. */
  fault?: () => Promise<void>;
  faultAfterMs?: number;
  /** Longest a run may take before it is reported as not finished. */
  deadlineMs?: number;
}

export interface LoadFigures {
  processes: number;
  contexts: number;
  /** Processes done at the end. */
  done: number;
  /** Steps that wrote the context, summed over processes (each is a wake of the loop). */
  wakes: number;
  seconds: number;
  wakesPerSecond: number;
  /** A context whose total is not the sum of its processes' passes: a write lost. */
  lost: number;
  /** A node and generation that ran twice in a journal, or a context version past its writes. */
  repeated: number;
  notFinished: number;
}

/** Every process loops on a 1 s timer, adding one to its context's shared total each pass. */
export function loadFlow(id: string, total: number) {
  return {
    format: 'flow/1',
    id,
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'inc', kind: 'work', set: { total: 'total + 1' } },
      { id: 'sleep', kind: 'continue-after', on: [{ id: 't', timer: 'PT1S' }] },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'e1', from: 'start', to: 'inc' },
      { id: 'e2', from: 'inc', to: 'sleep' },
      { id: 'e3', from: 'sleep', to: 'inc', when: `total < ${total}` },
      { id: 'e4', from: 'sleep', to: 'done', when: `total >= ${total}` },
    ],
  };
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/**
 * Runs the load, with a fault in the middle, until every process is done, then checks each
 * journal and context: the figures of docs/format.md's promises (no write lost, no step run twice).
 */
export async function loadRun(api: IngressClient, o: LoadOptions): Promise<LoadFigures> {
  const flow = `${o.prefix}load`;
  const deployed = await api.deploy(JSON.stringify(loadFlow(flow, o.total)));
  if (!deployed.ok) throw new Error(deployed.error);
  const ids = Array.from({ length: o.processes }, (_, i) => `${o.prefix}p${i}`);
  const leaders = ids.filter((_, i) => i % o.perContext === 0);
  const followers = ids.filter((_, i) => i % o.perContext !== 0);
  const began = Date.now();
  const start = async (id: string) => {
    const i = ids.indexOf(id);
    const leader = ids[i - (i % o.perContext)]!;
    const input =
      id === leader ? { flow, context: { total: 0 } } : { flow, shareContextWith: leader };
    const answer = await api.start(id, input);
    if (!answer.ok) throw new Error(`${id}: ${answer.error}`);
  };
  await inBatches(leaders, 10, start);
  await inBatches(followers, 10, start);
  if (o.fault) {
    await new Promise((r) => setTimeout(r, o.faultAfterMs ?? 2000));
    await o.fault();
  }
  const deadline = began + (o.deadlineMs ?? 120_000);
  let pending = [...ids];
  while (pending.length > 0 && Date.now() < deadline) {
    const still: string[] = [];
    await inBatches(pending, 20, async (id) => {
      const rest = await api.rest(id);
      if (!rest.ok || rest.value?.status !== 'done') still.push(id);
    });
    pending = still;
    if (pending.length > 0) await new Promise((r) => setTimeout(r, 500));
  }
  const seconds = (Date.now() - began) / 1000;
  let wakes = 0;
  let repeated = 0;
  const byContext = new Map<string, { sum: number; total: number; version: number }>();
  await inBatches(ids, 10, async (id) => {
    const status = await api.status(id);
    const journal = await api.journal(id);
    if (!status.ok || !journal.ok) return;
    const s = status.value;
    const ran = (journal.value as { type: string; node?: string; gen?: number[] }[]).filter(
      (e) => e.type === 'ran',
    );
    const keys = ran.map((e) => `${e.node}@${JSON.stringify(e.gen)}`);
    repeated += keys.length - new Set(keys).size;
    const incs = s.visits.inc ?? 0;
    // The snapshot's count and the journal's must agree: a replayed step would differ.
    if (ran.filter((e) => e.node === 'inc').length !== incs) repeated++;
    wakes += incs;
    const c = byContext.get(s.contextId) ?? { sum: 0, total: 0, version: 0 };
    c.sum += incs;
    c.total = (s.context as { total: number }).total;
    c.version = s.contextVersion;
    byContext.set(s.contextId, c);
  });
  let lost = 0;
  for (const c of byContext.values()) {
    if (c.total < c.sum) lost++;
    if (c.total > c.sum || c.version !== c.total) repeated++;
  }
  return {
    processes: ids.length,
    contexts: byContext.size,
    done: ids.length - pending.length,
    wakes,
    seconds: Math.round(seconds * 10) / 10,
    wakesPerSecond: Math.round((wakes / seconds) * 10) / 10,
    lost,
    repeated,
    notFinished: pending.length,
  };
}
