import type { contextObject } from './contextObject.ts';
import type { contextWaker } from './contextWaker.ts';
import type { eventIndex } from './eventIndex.ts';
import type { flowObject } from './flowObject.ts';
import type { registry } from './registry.ts';

/**
 * The objects by name alone, for calls between them, so no object's module loads another's at
 * run time. None of these objects calls back into a module that imports this one; the process
 * object, which they do call, has its own reference (processRef.ts).
 */
export const CONTEXT = { name: 'context' } as unknown as typeof contextObject;
export const FLOW = { name: 'flow' } as unknown as typeof flowObject;
export const EVENTS = { name: 'events' } as unknown as typeof eventIndex;
export const WAKER = { name: 'waker' } as unknown as typeof contextWaker;
export const REGISTRY = { name: 'registry' } as unknown as typeof registry;

/** The one key of the registry object. */
export const REGISTRY_KEY = 'all';
