import { NODE_KINDS, type NodeKind } from '../../shared/schema.ts';
import { KIND_NAMES } from './kinds.ts';

/**
 * What the palette adds: a node of each kind, and a Call, which is no kind of its own but a
 * continue-after with one call trigger (docs/format.md#calls), offered where a designer of n8n
 * or Step Functions looks for an HTTP request.
 */
export type PaletteEntry = NodeKind | 'call';

/** In the palette's order: a Call right after the continue-after it is made of. */
export const PALETTE_ENTRIES: readonly PaletteEntry[] = NODE_KINDS.flatMap((k) =>
  k === 'continue-after' ? [k, 'call' as const] : [k],
);

export const ENTRY_NAMES: Readonly<Record<PaletteEntry, string>> = { ...KIND_NAMES, call: 'Call' };

/** What the palette's title says of an entry that is not plainly a kind. */
export const ENTRY_NOTES: Readonly<Partial<Record<PaletteEntry, string>>> = {
  call: 'a continue-after that makes an HTTP request',
};

export const isPaletteEntry = (text: string): text is PaletteEntry =>
  (PALETTE_ENTRIES as readonly string[]).includes(text);
