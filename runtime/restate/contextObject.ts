import * as restate from '@restatedev/restate-sdk';
import type { ContextChange, ContextRecord } from '../supervisor/records.ts';

/** What a commit's context half is given (StepCommit's `context`, less its id: the key). */
export interface ContextCommit {
  expectedVersion: number;
  write?: { value: unknown; changes: ContextChange[]; versions?: number };
}

/**
 * A write's answer: true when it was made, or else the context as it now is (null: there is
 * none), so that the step runs again on it without another call to read it. (An endpoint from
 * before this answered false, which a replay of its journal may still hand back.)
 */
export type ContextAnswer = true | { now: Omit<ContextRecord, 'id'> | null };

/**
 * A commit's context half (Store.commitStep): compare-and-set, then the write if any. A commit
 * may hold several steps (group commit): one change, and one version, per node that wrote, in
 * order; `versions` counts them where the journal's retention rule summed up older passes'
 * changes, so the version moves by it and each change is kept at its own version.
 */
export async function commitContext(
  ctx: Pick<restate.ObjectContext, 'get' | 'set'>,
  input: ContextCommit,
): Promise<ContextAnswer> {
  const version = await ctx.get<number>('version');
  if (version !== input.expectedVersion)
    return { now: version === null ? null : { version, value: await ctx.get('value') } };
  if (input.write) {
    const { value, changes, versions } = input.write;
    ctx.set('value', value);
    ctx.set('version', version + (versions ?? changes.length));
    for (const change of changes) ctx.set(`change:${change.version}`, change);
  }
  return true;
}

/**
 * A context a process kept as its own (processContexts.ts), moved here with its changes before
 * another process stands on it. Once: a context already here is left as it is.
 */
export async function adoptContext(
  ctx: Pick<restate.ObjectContext, 'get' | 'set'>,
  input: { version: number; value: unknown; changes: ContextChange[] },
): Promise<void> {
  if ((await ctx.get<number>('version')) !== null) return;
  ctx.set('value', input.value);
  ctx.set('version', input.version);
  for (const change of input.changes) ctx.set(`change:${change.version}`, change);
}

function create(ctx: Pick<restate.ObjectContext, 'set'>, value: unknown): void {
  ctx.set('value', value);
  ctx.set('version', 0);
}

/**
 * A context entity (docs/format.md: the context is a JSON document with an id and a version), one
 * Virtual Object per context id. Its exclusive handlers run one at a time per key, so two
 * processes writing one context are serialized by Restate; the compare-and-set on the version
 * is the supervisor's own rule (a step that read an older version runs again on the new one).
 */
export const contextObject = restate.object({
  name: 'context',
  handlers: {
    /** Creates the context at version 0; false when it exists. */
    create: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, value: unknown): Promise<boolean> => {
        if ((await ctx.get<number>('version')) !== null) return false;
        create(ctx, value);
        return true;
      },
    ),
    /** Writes the whole record when its version is `expectedVersion` (Store.putContext). */
    put: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (
        ctx: restate.ObjectContext,
        input: { record: ContextRecord; expectedVersion: number | null; change?: ContextChange },
      ): Promise<ContextAnswer> => {
        const version = await ctx.get<number>('version');
        if (version !== input.expectedVersion)
          return { now: version === null ? null : { version, value: await ctx.get('value') } };
        ctx.set('value', input.record.value);
        ctx.set('version', input.record.version);
        if (input.change) ctx.set(`change:${input.record.version}`, input.change);
        return true;
      },
    ),
    /**
     * A commit's context half (Store.commitStep): compare-and-set, then the write if any. A
     * commit may hold several steps (group commit): one change, and one version, per node that
     * wrote, in order.
     */
    commit: restate.handlers.object.exclusive({ ingressPrivate: true }, commitContext),
    adopt: restate.handlers.object.exclusive({ ingressPrivate: true }, adoptContext),
    get: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<ContextRecord | null> => {
        const version = await ctx.get<number>('version');
        if (version === null) return null;
        return { id: ctx.key, version, value: await ctx.get<unknown>('value') };
      },
    ),
    /** Every recorded change, oldest first. */
    changes: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<ContextChange[]> => {
        const version = (await ctx.get<number>('version')) ?? 0;
        const out: ContextChange[] = [];
        for (let v = 1; v <= version; v++) {
          const change = await ctx.get<ContextChange>(`change:${v}`);
          if (change) out.push(change);
        }
        return out;
      },
    ),
  },
});
