import type * as restate from '@restatedev/restate-sdk';
import type { JournalEntry, ProcessRecord } from '../supervisor/records.ts';

/** What a process at rest tells a caller that waits for it, read from its state alone. */
export interface ProcessRest {
  status: ProcessRecord['status'];
  due: number | null;
  events: string[];
  /** When its next call attempt is due (or is in flight), if it waits at a call. */
  callDue: number | null;
}

/**
 * The handlers of the process object that the other objects call, written out rather than taken
 * from processObject.ts: the process calls the waker and the event index, which call the process
 * back, so a type taken from the definition would tie those modules in a circle.
 * processObject.ts checks that its handlers still match these.
 */
export interface ProcessCalls {
  /** A delayed call at a due time; how many processes it woke. */
  tick(ctx: restate.ObjectContext, input: { at?: number } | null): Promise<number>;
  /** A delayed call at a call attempt's due time; how many attempts it sent. */
  calls(ctx: restate.ObjectContext, input: { at?: number } | null): Promise<number>;
  /**
   * Moves the process's own context into a context object before another process stands on it
   * (`sharer`: and will write it); nothing for a context in an object, or no such process.
   */
  shareContext(ctx: restate.ObjectContext, input: { sharer: boolean }): Promise<void>;
  /** An event for this process; how many of its waits it woke. */
  event(ctx: restate.ObjectContext, input: unknown): Promise<number>;
  record(ctx: restate.ObjectSharedContext): Promise<ProcessRecord | null>;
  journal(ctx: restate.ObjectSharedContext): Promise<JournalEntry[]>;
  rest(ctx: restate.ObjectSharedContext): Promise<ProcessRest | null>;
}

/** The process object by name alone, for calls from the other objects. */
export const PROCESS = { name: 'process' } as restate.VirtualObjectDefinition<
  'process',
  ProcessCalls
>;
