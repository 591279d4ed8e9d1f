import type { EngineEnv } from './engineEnv.ts';
import type { FlowModel } from './flowModel.ts';
import type { Child, ScopeSnapshot } from './snapshot.ts';

// Its own module so that the live index can name it without importing run.ts, which imports it.

/** A running flow inside a step: its snapshot part with what is known of it. */
export interface Scope {
  data: ScopeSnapshot;
  model: FlowModel;
  prefix: string;
  depth: number;
  /** The scope and child entry this one runs under; absent for the top level. */
  parent: { scope: Scope; child: Child } | undefined;
  /** The children from the top level down to this scope, once asked for (`chainOf`). */
  chain: readonly Child[] | undefined;
  /**
   * The flows lookup (`EngineEnv.flows`) this scope and every scope above it were last found
   * to run the flow objects of: a step given the same lookup need not ask it again (`scopeAt`).
   */
  checked: EngineEnv['flows'] | undefined;
}
