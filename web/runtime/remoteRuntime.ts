import { IngressClient, type Answer } from '../../runtime/restate/ingressClient.ts';
import type {
  ProcessReadingView,
  ProcessView as ServerProcessView,
} from '../../runtime/restate/processObject.ts';
import type { IndexPage } from '../../runtime/restate/processIndex.ts';
import { MAX_INDEX_WINDOW, MAX_JOURNAL_READ } from '../../runtime/restate/processInput.ts';
import type { FlowSummary } from '../../runtime/restate/wakeflowService.ts';
import { nodeVisits, VISITS_SHOWN } from '../../runtime/supervisor/nodeVisits.ts';
import { pastContextAtSeq } from '../../runtime/supervisor/pastContext.ts';
import type {
  JournalEntry,
  ProcessRecord,
  ProcessStatus,
} from '../../runtime/supervisor/records.ts';
import type { ProcessCounts } from '../../runtime/supervisor/store.ts';
import type { Flow } from '../../shared/schema.ts';
import { processRow } from './processRow.ts';
import { randomId } from './randomId.ts';
import type { ProcessReading } from './runtimeProtocol.ts';
import { PROXY_PATH, serverName, type ServerChoice } from './serverChoice.ts';
import type {
  Capabilities,
  Change,
  RuntimeClientState,
  WorkbenchRuntime,
} from './workbenchRuntime.ts';

/** What a server does not offer, each said in one line where the feature would be. */
export const SERVER_CAPABILITIES: Capabilities = {
  virtualClock: 'A server keeps its own time: its timers fire on the server’s clock',
  callSettings:
    'A server’s calls reach the origins of flow serve’s --allow-origin and read its environment’s secrets',
  pins: 'Pinned answers are this browser’s: a server sends every call',
  retention: 'A server keeps each process’s whole journal',
  stepping: 'A server runs each process until it waits, ends or fails: it cannot pause on a node',
  fork: true,
  deploy: true,
};

/** How often the workbench asks the server what changed (docs/restate.md, "Polling"). */
export const POLL_MS = 2000;
/**
 * How long a read (a poll, the table, the inspector) waits for the server before the top bar
 * says it is reconnecting: a request that never answers must not stop the polls behind it.
 * Changes have none: a control that was sent is attached to until the server answers it.
 */
export const READ_TIMEOUT_MS = 15_000;
/** The server's process index (runtime/restate/processIndex.ts). */
const INDEX = '/processIndex/all';
/** Journal entries the inspector reads with a process, as from the worker. */
const JOURNAL_PAGE = 100;

type ServerReading = ProcessReadingView;

/** The answer's value, or an Error with the server's (or the proxy's) message. */
function valueOf<T>(answer: Answer<T>): T {
  if (answer.ok) return answer.value;
  throw new Error(answer.error);
}

/**
 * The workbench's runtime on a Restate server (workbenchRuntime.ts): every request goes to the
 * page's own origin at `/ingress`, which forwards it to the server's ingress (ingressProxy.ts),
 * so the page's Content-Security-Policy keeps `connect-src 'self'`. The server is asked what
 * changed every POLL_MS; edits of a flow stay in this page until Deploy sends them.
 */
export function createRemoteRuntime(
  choice: ServerChoice,
  options: { pollMs?: number; readTimeoutMs?: number; origin?: string; storage?: Storage } = {},
): WorkbenchRuntime & { name: string; check(): Promise<void> } {
  const base = `${options.origin ?? location.origin}${PROXY_PATH}`;
  const headers = {
    'x-wakeflow-ingress': choice.url,
    ...(choice.token ? { authorization: `Bearer ${choice.token}` } : {}),
  };
  const client = new IngressClient(base, { headers });
  const reader = new IngressClient(base, {
    headers,
    timeoutMs: options.readTimeoutMs ?? READ_TIMEOUT_MS,
  });
  const listeners = new Set<(change: Change) => void>();
  const stateListeners = new Set<(state: RuntimeClientState) => void>();
  /** Edits not yet deployed, by flow id. */
  const drafts = new Map<string, Flow>();
  /** The index's stamp of the last change the views were told of; unknown before a first read. */
  let stamp: number | undefined;
  let deployed: Flow[] = [];
  let flowsSeen = '';
  const storage = options.storage ?? localStorage;
  let openFlow: string | undefined = storage.getItem(openFlowKey(choice.url)) ?? undefined;

  /** Since when, and why, the server has not answered a poll; undefined while it answers. */
  let away: { since: number; why: string } | undefined;

  const state = (): RuntimeClientState => ({
    clock: { mode: 'real' },
    saveState: away
      ? {
          saved: false,
          error: `Reconnecting to ${serverName(choice.url)}: ${away.why}. What is shown is as it was when it last answered.`,
          since: away.since,
        }
      : drafts.size === 0
        ? { saved: true }
        : {
            saved: false,
            error: `Not deployed: press Deploy to send ${[...drafts.keys()].join(', ')} to the server`,
            since: Date.now(),
          },
  });
  const tellState = () => stateListeners.forEach((l) => l(state()));
  const notify = (change: Change) => listeners.forEach((l) => l(change));

  async function readFlows(): Promise<Flow[]> {
    const summaries = valueOf(await reader.call<FlowSummary[]>('/wakeflow/flows'));
    const flows: Flow[] = [];
    for (const s of summaries) {
      const flow = valueOf(
        await reader.call<Flow | null>(`/flow/${encodeURIComponent(s.id)}/current`),
      );
      if (flow) flows.push(flow);
    }
    return flows;
  }

  /** The processes whose row changed since the last ask (docs/restate.md, "Polling"). */
  async function readChanges(): Promise<string[]> {
    const answer = valueOf(
      await reader.call<{ stamp: number; ids: string[] }>(
        `${INDEX}/changes`,
        stamp === undefined ? {} : { since: stamp },
      ),
    );
    stamp = answer.stamp;
    return answer.ids;
  }

  async function readProcess(id: string, journalLimit: number): Promise<ServerReading | undefined> {
    const answer = await reader.call<ServerReading>(`/process/${encodeURIComponent(id)}/reading`, {
      journalLimit,
    });
    if (!answer.ok && answer.status === 404) return undefined;
    return valueOf(answer);
  }

  async function mustRecord(id: string): Promise<ProcessRecord> {
    const reading = await readProcess(id, 1);
    if (!reading) throw new Error(`there is no process "${id}" on ${serverName(choice.url)}`);
    return reading.record;
  }

  /** A change sent once (an idempotency key of its own), then the record as it now is. */
  async function control(id: string, path: string, body?: unknown): Promise<ProcessRecord> {
    valueOf(
      await client.change<ServerProcessView>(
        `/process/${encodeURIComponent(id)}/${path}`,
        body,
        randomId('process'),
      ),
    );
    const record = await mustRecord(id);
    notify({ processes: [id], flows: false });
    return record;
  }

  /** One poll: the flows and the processes, told as one change when anything moved. */
  async function poll(): Promise<void> {
    try {
      const flows = await readFlows();
      const text = JSON.stringify(flows);
      const flowsChanged = text !== flowsSeen;
      flowsSeen = text;
      deployed = flows;
      const processes = await readChanges();
      if (away) {
        away = undefined;
        tellState();
      }
      if (flowsChanged || processes.length > 0) notify({ processes, flows: flowsChanged });
    } catch (e) {
      // The server is away: the views keep what they read, the top bar says so, and the next
      // poll tries again.
      if (!away) {
        away = { since: Date.now(), why: (e as Error).message };
        tellState();
      }
    }
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const loop = async () => {
    await poll();
    if (!closed) timer = setTimeout(() => void loop(), options.pollMs ?? POLL_MS);
  };

  const flowsOf = () => {
    const byId = new Map(deployed.map((f) => [f.id, f]));
    for (const [id, draft] of drafts) byId.set(id, draft);
    return byId;
  };
  const notHere = (capability: keyof Capabilities) => () =>
    Promise.reject(new Error(String(SERVER_CAPABILITIES[capability])));

  return {
    name: serverName(choice.url),
    capabilities: SERVER_CAPABILITIES,
    /** Throws why the server cannot be used (unreachable, refused, no wakeflow on it). */
    async check() {
      valueOf(await reader.call<FlowSummary[]>('/wakeflow/flows'));
    },
    processes: {
      async start(flow, options = {}) {
        const id = options.id ?? randomId('process');
        const started = valueOf(
          await client.change<ServerProcessView>(
            `/process/${encodeURIComponent(id)}/start`,
            {
              flow,
              ...(options.context !== undefined ? { context: options.context } : {}),
              ...(options.shareContextWith !== undefined
                ? { shareContextWith: options.shareContextWith }
                : {}),
            },
            randomId('process'),
          ),
        );
        const record = await mustRecord(started.id);
        notify({ processes: [record.id], flows: false });
        return record;
      },
      // Sent to the new process's key, which the server starts from the source's entry.
      fork: (source, { seq, context, id = randomId('process') }) =>
        control(id, 'fork', { from: source, seq, context }),
      stop: (id) => control(id, 'stop'),
      resume: (id) => control(id, 'resume'),
      retry: (id) => control(id, 'retry'),
      drive: notHere('stepping'),
      stepOnce: notHere('stepping'),
      wakeNow: (id) => control(id, 'wakeNow'),
      // The server says why at resolve: its refusal is the message the view shows.
      continueProblem: () => Promise.resolve(undefined),
      resolve: (id, choice) => control(id, 'resolve', { choice }),
      async replaceContext(id, value) {
        await control(id, 'replaceContext', { value });
      },
      async deliverEvent(name, payload, to) {
        const answer = valueOf(await client.event(name, payload, to, randomId('process')));
        // Whom it woke is the index's to say: asked now rather than at the next poll.
        void poll();
        return answer.delivered;
      },
      submitHuman: (id, node, input, trigger) =>
        control(id, 'human', { node, input, ...(trigger === undefined ? {} : { trigger }) }),
      async sendCallNow(id, seq) {
        const sent = valueOf(
          await client.change<boolean>(
            `/process/${encodeURIComponent(id)}/sendCallNow`,
            { seq },
            randomId('process'),
          ),
        );
        await mustRecord(id);
        notify({ processes: [id], flows: false });
        return sent;
      },
    },
    clock: {
      useVirtual: notHere('virtualClock'),
      useReal: () => Promise.resolve(),
      nextDue: () => Promise.resolve(null),
      advanceTo: notHere('virtualClock'),
    },
    onState(listener) {
      stateListeners.add(listener);
      listener(state());
      return () => stateListeners.delete(listener);
    },
    onChange(listener) {
      listeners.add(listener);
      if (timer === undefined && !closed)
        timer = setTimeout(() => void loop(), options.pollMs ?? POLL_MS);
      return () => listeners.delete(listener);
    },
    async flowsView() {
      deployed = await readFlows();
      flowsSeen = JSON.stringify(deployed);
      return { flows: [...flowsOf().values()], pins: [], saveState: state().saveState };
    },
    async processList(query) {
      const page = valueOf(
        await reader.call<IndexPage>(`${INDEX}/page`, {
          ...query,
          limit: Math.min(query.limit, MAX_INDEX_WINDOW),
        }),
      );
      // Changes after this read are the first poll's to tell.
      stamp ??= page.stamp;
      const { rows, total, counts, all } = page;
      return { query, rows: rows.map(processRow), total, counts, all };
    },
    async processCounts(flow) {
      return valueOf(
        await reader.call<ProcessCounts>(`${INDEX}/counts`, flow === undefined ? {} : { flow }),
      );
    },
    async processIds(flow: string, status: ProcessStatus) {
      return valueOf(await reader.call<string[]>(`${INDEX}/ids`, { flow, status }));
    },
    async processNames() {
      return valueOf(await reader.call<{ id: string; flow: string }[]>(`${INDEX}/names`));
    },
    async hasProcess(id) {
      return (await readProcess(id, 1)) !== undefined;
    },
    async reading(id, journalLimit = JOURNAL_PAGE): Promise<ProcessReading | undefined> {
      const r = await readProcess(id, Math.min(Math.max(1, journalLimit), MAX_JOURNAL_READ));
      if (!r) return undefined;
      return { ...r, flows: new Map(Object.entries(r.flows)) };
    },
    async journal(id) {
      return valueOf(await reader.journal(id)) as JournalEntry[];
    },
    async pastContext(id, seq) {
      const r = await readProcess(id, 1);
      if (!r) return { ok: false, problem: `there is no process "${id}"` };
      const journal = valueOf(await reader.journal(id)) as JournalEntry[];
      return pastContextAtSeq(journal, seq, r.changes);
    },
    async nodeVisits(id, node, limit = VISITS_SHOWN, upTo) {
      const r = await readProcess(id, 1);
      if (!r) return { ok: false, problem: `there is no process "${id}"` };
      const journal = valueOf(await reader.journal(id)) as JournalEntry[];
      return nodeVisits({
        journal,
        changes: r.changes,
        flows: new Map(Object.entries(r.flows)),
        flow: r.record.flow,
        node,
        limit,
        ...(typeof upTo === 'number' ? { upTo } : {}),
      });
    },
    wakeDue: () => Promise.resolve(),
    retention: () => Promise.resolve(0),
    setRetention: notHere('retention'),
    openFlow: () => Promise.resolve(openFlow),
    setOpenFlow(id) {
      openFlow = id;
      storage.setItem(openFlowKey(choice.url), id);
      return Promise.resolve();
    },
    callSettings: () => Promise.resolve({ origins: [], secrets: [] }),
    allowOrigin: () =>
      Promise.resolve({ ok: false, error: String(SERVER_CAPABILITIES.callSettings) }),
    removeOrigin: notHere('callSettings'),
    setSecret: () =>
      Promise.resolve({ ok: false, error: String(SERVER_CAPABILITIES.callSettings) }),
    removeSecret: notHere('callSettings'),
    testRequest: notHere('callSettings'),
    pinCall: () => Promise.resolve({ ok: false, error: String(SERVER_CAPABILITIES.pins) }),
    unpinCall: () => Promise.resolve(false),
    // An import without pins is an import like any other; one with pins says why it cannot be.
    restorePins: (pins) =>
      Promise.resolve(
        pins.length === 0
          ? { ok: true, value: 0 }
          : { ok: false, error: String(SERVER_CAPABILITIES.pins) },
      ),
    saveFlow(flow) {
      drafts.set(flow.id, flow);
      tellState();
      notify({ processes: [], flows: true });
      return Promise.resolve();
    },
    deleteFlow() {
      return Promise.reject(new Error('A server keeps every flow it was sent: it deletes none'));
    },
    async deploy(sent) {
      if (sent.length === 0) return { ok: false, error: 'there is no flow to deploy' };
      const file = JSON.stringify({ format: 'flows/1', flows: sent });
      const answer = await client.deploy(file, randomId('process'));
      if (!answer.ok) return { ok: false, error: answer.error };
      for (const f of sent) drafts.delete(f.id);
      deployed = await readFlows();
      flowsSeen = JSON.stringify(deployed);
      tellState();
      notify({ processes: [], flows: true });
      return { ok: true, value: answer.value.map((d) => d.id) };
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      listeners.clear();
      stateListeners.clear();
    },
  };
}

const openFlowKey = (url: string) => `wakeflow:server-open-flow:${url}`;
