import type { contextObject } from './contextObject.ts';
import type { contextWaker } from './contextWaker.ts';
import type { eventIndex } from './eventIndex.ts';
import type { flowObject } from './flowObject.ts';
import type { processObject } from './processObject.ts';
import type { registry } from './registry.ts';

/**
 * The objects by name alone, for calls between them: the modules that define them import each
 * other's types only, so no object's module loads another's at run time.
 */
export const PROCESS = { name: 'process' } as unknown as typeof processObject;
export const CONTEXT = { name: 'context' } as unknown as typeof contextObject;
export const FLOW = { name: 'flow' } as unknown as typeof flowObject;
export const EVENTS = { name: 'events' } as unknown as typeof eventIndex;
export const WAKER = { name: 'waker' } as unknown as typeof contextWaker;
export const REGISTRY = { name: 'registry' } as unknown as typeof registry;

/** The one key of the registry object. */
export const REGISTRY_KEY = 'all';
