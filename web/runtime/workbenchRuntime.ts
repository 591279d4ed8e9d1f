import type { Pin } from '../../shared/pins.ts';
import type { LeanReading } from './leanReading.ts';
import type { Call, Flow, Trigger } from '../../shared/schema.ts';
import type { CallSettingsView } from '../calls/callSettingsStore.ts';
import type { Checked } from '../calls/callSettingsRules.ts';
import type { SaveState } from '../../runtime/store/resilientStore.ts';
import type { ResolveChoice } from '../../runtime/supervisor/controls.ts';
import type { ForkOptions } from '../../runtime/supervisor/fork.ts';
import type { NodeVisits } from '../../runtime/supervisor/nodeVisits.ts';
import type { PastContext } from '../../runtime/supervisor/pastContext.ts';
import type { StartOptions } from '../../runtime/supervisor/processStarts.ts';
import type {
  JournalEntry,
  ProcessRecord,
  ProcessStatus,
} from '../../runtime/supervisor/records.ts';
import type { ProcessCounts } from '../../runtime/supervisor/store.ts';
import type {
  ClockState,
  FlowsView,
  ListQuery,
  ProcessList,
  ProcessReading,
} from './runtimeProtocol.ts';
import type { TestRequestResult } from './testRequest.ts';

/**
 * What the workbench asks of a runtime, and all it may ask (docs/architecture.md, "The runtime
 * interface"): named operations on plain data, so that a runtime elsewhere (a Restate server,
 * through its ingress) can offer the same as this tab's worker (createRuntime.ts). No view
 * reaches the supervisor or the store behind it; ESLint keeps it so (eslint.config.js).
 */
export interface WorkbenchRuntime {
  /** What this runtime can do; a view hides what it cannot and shows why (ui/Unavailable.tsx). */
  readonly capabilities: Capabilities;
  /** The designer's controls of processes: each answers the record as it now is, or throws why not. */
  processes: ProcessControls;
  /** Real time, or virtual time the designer moves forward (this tab only). */
  clock: ClockControls;
  /**
   * Tells the clock and the save state each time they change (a change from the runtime, a
   * switch of mode, the end of an advance, a read of the flows), and once at once. The page
   * keeps them in one store (state/runtimeState.ts, followRuntime) and reads them there only.
   */
  onState(listener: (state: RuntimeClientState) => void): () => void;
  /**
   * Tells this tab's views that something changed, here or in another tab: which processes, and
   * whether the workspace's flows did.
   */
  onChange(listener: (change: Change) => void): () => void;
  /** The workspace's flows and the save state, in one call. */
  flowsView(): Promise<FlowsView>;
  /** A window of the process table (its rows only, no context) and its counts. */
  processList(query: ListQuery): Promise<ProcessList>;
  /** How many processes there are, in all and per status (of one flow, if asked). */
  processCounts(flow?: string): Promise<ProcessCounts>;
  /** The ids of a flow's processes of one status, oldest first. */
  processIds(flow: string, status: ProcessStatus): Promise<string[]>;
  /** Every process by id and flow, oldest first. */
  processNames(): Promise<{ id: string; flow: string }[]>;
  /** Whether a process of this id is kept (a session restored after a reload asks). */
  hasProcess(id: string): Promise<boolean>;
  /**
   * One process as the inspector shows it, in one call, with the newest `journalLimit` entries
   * of its journal; undefined when there is none.
   */
  reading(id: string, journalLimit?: number): Promise<ProcessReading | undefined>;
  /**
   * The same without what the page holds or does not show (leanReading.ts), where the runtime
   * can tell: this browser's worker. `flowsKey` is the key of the last lean reading's flows.
   */
  leanReading?(
    id: string,
    journalLimit?: number,
    flowsKey?: string,
  ): Promise<LeanReading | undefined>;
  /** A process's whole journal, oldest first (an export of it). */
  journal(id: string): Promise<JournalEntry[]>;
  /** A process's context as of its journal entry `seq` (its store key), rebuilt by the runtime. */
  pastContext(id: string, seq: number): Promise<PastContext>;
  /**
   * The visits of one node of a process (by its path, `sub/step`), read from the journal: the
   * newest `limit` (20 at most) in detail, and how many there are in all.
   */
  nodeVisits(id: string, node: string, limit?: number, upTo?: number): Promise<NodeVisits>;
  /** Wakes what is due now and runs what can run (the worker's schedule does so by itself). */
  wakeDue(): Promise<void>;
  /** How many of a process's last passes the journal keeps in full; older ones are summed up. */
  retention(): Promise<number>;
  setRetention(passes: number): Promise<void>;
  /** The flow the workbench had open, kept with the workspace; undefined when none was. */
  openFlow(): Promise<unknown>;
  setOpenFlow(id: string): Promise<void>;
  /** The workspace's allowed origins and the names of its secrets (never a value). */
  callSettings(): Promise<CallSettingsView>;
  allowOrigin(text: string): Promise<Checked<string>>;
  removeOrigin(origin: string): Promise<void>;
  /** Adds or replaces a secret; the value goes to the runtime and never comes back. */
  setSecret(name: string, value: string): Promise<Checked<string>>;
  removeSecret(name: string): Promise<void>;
  /** One attempt of a call trigger, sent by the runtime with the workspace's settings. */
  testRequest(trigger: Trigger & { call: Call }): Promise<TestRequestResult>;
  /** Pins an answer to a call (docs/format.md#pinned-answers); the pin as kept, or why not. */
  pinCall(pin: Pin): Promise<Checked<Pin>>;
  /** Removes a call's pin; false when it had none. */
  unpinCall(at: { flow: string; node: string; trigger: string }): Promise<boolean>;
  /** An import's pins, each replacing its call's; refused whole past the workspace's limit. */
  restorePins(pins: Pin[]): Promise<Checked<number>>;
  /** Saves a workspace flow (kept in memory if the disk refuses) and tells every tab. */
  saveFlow(flow: Flow): Promise<void>;
  deleteFlow(id: string): Promise<void>;
  /** Sends flows (one and those it calls) to the server: their ids, or the server's refusal. */
  deploy(flows: readonly Flow[]): Promise<Checked<string[]>>;
  close(): void;
}

/**
 * What a runtime can do beyond running flows: `true`, or one line saying why not, which the view
 * shows where the feature would be (docs/decisions.md, "Capabilities say why").
 */
export interface Capabilities {
  /** A clock the designer moves forward: a server's runs keep the server's time. */
  readonly virtualClock: Capability;
  /** The workspace's allowed origins and secrets, kept by the runtime. */
  readonly callSettings: Capability;
  /** Answers pinned to calls. */
  readonly pins: Capability;
  /** How many passes a journal keeps in full. */
  readonly retention: Capability;
  /** Step and Run: a process paused between two nodes. */
  readonly stepping: Capability;
  /** A new process from a journal entry of another. */
  readonly fork: Capability;
  /** Sending flows to a server (Deploy); this browser runs flows as they are saved. */
  readonly deploy: Capability;
}

/** `true`, or why not, in one line. */
export type Capability = true | string;

export type CapabilityName = keyof Capabilities;

/** The controls of the inspector, the waits' forms and the start dialog, by name. */
export interface ProcessControls {
  start(flow: string, options?: StartOptions): Promise<ProcessRecord>;
  /** A new process from a journal entry of another. */
  fork(source: string, options: ForkOptions): Promise<ProcessRecord>;
  stop(id: string): Promise<ProcessRecord>;
  resume(id: string): Promise<ProcessRecord>;
  retry(id: string): Promise<ProcessRecord>;
  /** Runs a process until it waits, ends or fails. */
  drive(id: string): Promise<ProcessRecord>;
  /** Runs one node of a process, which pauses again. */
  stepOnce(id: string): Promise<ProcessRecord>;
  /** Fires a waiting process's timer now. */
  wakeNow(id: string): Promise<ProcessRecord>;
  /** Why a process whose flow changed cannot continue on the new version; undefined if it can. */
  continueProblem(id: string): Promise<string | undefined>;
  /** What a process whose flow changed does: continue, keep its version, restart or cancel. */
  resolve(id: string, choice: ResolveChoice): Promise<ProcessRecord>;
  replaceContext(id: string, value: unknown): Promise<void>;
  /** Delivers an event; how many processes took it (to one, if `to` names it). */
  deliverEvent(name: string, payload: unknown, to?: string): Promise<number>;
  /** Answers a human trigger of the continue-after at `nodePath`, bound to its wait. */
  submitHuman(
    id: string,
    nodePath: string,
    input: unknown,
    triggerId?: string,
    waitSeq?: number,
  ): Promise<ProcessRecord>;
  /** Sends a waiting call's next attempt now; false when it has none left. */
  sendCallNow(id: string, seq: number): Promise<boolean>;
}

/** The clock: real time, or virtual time moved forward by the designer. */
export interface ClockControls {
  useVirtual(): Promise<void>;
  useReal(): Promise<void>;
  /** When the next timer of any process is due; null when none is. */
  nextDue(): Promise<number | null>;
  /**
   * Advances the virtual clock to `target`, firing every timer due on the way, in order; reports
   * each stop and ends early, at the last time reached, when `signal` is aborted.
   */
  advanceTo(
    target: number,
    options: { onProgress?: (reached: number, wakes: number) => void; signal?: AbortSignal },
  ): Promise<{ wakes: number; reached: number }>;
}

/** The clock and whether everything is saved, as the runtime last told them. */
export interface RuntimeClientState {
  clock: ClockState;
  saveState: SaveState;
}

/** What changed, as the runtime told it. */
export interface Change {
  processes: readonly string[];
  flows: boolean;
}
