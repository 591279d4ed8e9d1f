import type { Flow } from '../../shared/schema.ts';
import type { ExtraFunctions } from '../expr/evaluate.ts';

// Its own module so that the engine's parts (waits, the live index) can name it without
// importing run.ts, which imports them.

/** What the engine needs besides the snapshot: flows by id, and the time, passed in. */
export interface EngineEnv {
  /**
   * The flows by id. One lookup gives the same flow object for an id whenever asked: steps that
   * are given the same lookup trust what they learnt of it (the scopes of `Run.scopeAt`).
   */
  flows: (id: string) => Flow | undefined;
  /** Milliseconds since the epoch; stamped on new waits so the supervisor can time them. */
  now: number;
  /** Live branches allowed at once (MAX_LIVE_BRANCHES when absent); a step beyond fails its node. */
  maxLiveBranches?: number;
  /**
   * Told of each node a step enters, before any of its expressions run, so that a runner that
   * has to stop a runaway expression from outside (the app ends its worker) can name the node.
   */
  entering?: (path: string) => void;
  /**
   * Functions expressions may call besides JSONata's own (runtime/expr/evaluate.ts,
   * ExtraFunctions). The app gives none; a test does (the dev server's `$block`).
   */
  functions?: ExtraFunctions;
  /**
   * false: the caller keeps no journal (flow simulate's store keeps none), and a step makes no
   * entries for it but a failed node's `failed`; two objects a step, made to be dropped.
   */
  journal?: boolean;
}
