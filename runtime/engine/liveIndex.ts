import type { Scope } from './scope.ts';
import type { Child, ScopeSnapshot, Token } from './snapshot.ts';

/** A ready token and where it stands. */
export interface ReadyEntry {
  token: Token;
  /**
   * The scope a step queued it in, or, for the tokens an index was made with, the running
   * sub-flows (children, from the top level down) that lead to its scope.
   */
  where: Scope | readonly Child[];
}

/**
 * What is live in a process with running sub-flows, kept as it changes rather than found by a
 * walk over every running sub-flow at each step: how many live branches there are (nodes ready,
 * waits and running sub-flows, docs/engine.md) and the ready tokens in the order of their
 * numbers, with where each stands. A process that called its own flow twice at every level ran
 * thousands of sub-flows, and those two walks were nearly all of each step.
 *
 * Invariant: it describes exactly the scopes under the top-level scope it was made for (see
 * `liveIndexOf`), as long as every change to their lists is told to it. The engine's `Run` keeps
 * one only for a snapshot its caller owns, whose lists it changes in place; a step that fails,
 * or changes the lists in a way not told here (a scope ended with something still in it), drops
 * it, and the next step that needs one makes it again from the snapshot.
 */
export class LiveIndex {
  /** Nodes ready, waits and running sub-flows, across every scope. */
  live = 0;
  /** Ready tokens in the order of their numbers; those before `head` have been taken. */
  private readonly ready: ReadyEntry[] = [];
  private head = 0;

  /** Made by one walk over the scopes, the ready tokens put in the order of their numbers. */
  constructor(root: ScopeSnapshot) {
    const chain: Child[] = [];
    const walk = (data: ScopeSnapshot): void => {
      this.live += data.ready.length + data.waits.length + data.children.length;
      const where = chain.slice();
      for (const token of data.ready) this.ready.push({ token, where });
      for (const child of data.children) {
        chain.push(child);
        walk(child.scope);
        chain.pop();
      }
    };
    walk(root);
    // Stable: among equal numbers (a snapshot written by hand), the first met in the walk is
    // first, as the walk over the scopes (`earliestReady` in run.ts) picks it.
    this.ready.sort((a, b) => a.token.seq - b.token.seq);
  }

  /** The ready token with the lowest number, if any. */
  first(): ReadyEntry | undefined {
    return this.ready[this.head];
  }

  /** The ready tokens not yet taken, in the order they run. */
  remaining(): readonly ReadyEntry[] {
    return this.ready.slice(this.head);
  }

  /** The first token was taken to run. */
  shift(): void {
    this.head++;
    this.live--;
    // Taken entries are cut off now and then, not at every step (a shift of the whole list).
    if (this.head >= 1024 && this.head * 2 >= this.ready.length) {
      this.ready.splice(0, this.head);
      this.head = 0;
    }
  }

  /**
   * A token was queued in `where`. False when it would not come last in the order of numbers (a
   * snapshot written by hand): the index can then no longer be kept, and the caller drops it.
   */
  queued(token: Token, where: Scope): boolean {
    const last = this.ready[this.ready.length - 1];
    if (this.ready.length > this.head && last !== undefined && last.token.seq > token.seq)
      return false;
    this.ready.push({ token, where });
    this.live++;
    return true;
  }
}

/**
 * Indexes by the top-level scope they describe. A step on an owned snapshot changes the scopes
 * in place and keeps the same top-level scope object (`shareScopes`), so the next step finds
 * the index; a copied snapshot has new scopes, and none.
 */
const indexes = new WeakMap<ScopeSnapshot, LiveIndex>();

/** The index kept for the scopes under `root`, if one was made. */
export function liveIndexOf(root: ScopeSnapshot): LiveIndex | undefined {
  return indexes.get(root);
}

/** A new index of the scopes under `root`, kept for the next steps. */
export function indexLive(root: ScopeSnapshot): LiveIndex {
  const index = new LiveIndex(root);
  indexes.set(root, index);
  return index;
}

/** Drops the index of `root`: its scopes changed in a way it was not told of. */
export function dropLiveIndex(root: ScopeSnapshot): void {
  indexes.delete(root);
}
