import { isPaletteEntry, type PaletteEntry } from '../designer/paletteEntries.ts';

/** The drag data type that carries a node kind (or a Call) from the palette to the canvas. */
export const KIND_DRAG_TYPE = 'application/wakeflow-kind';

/**
 * The node kind a drop carries, or undefined when it carries none: drops can come from other
 * pages and apps, so the text is checked against the kinds rather than trusted.
 */
export function kindFromDrag(data: Pick<DataTransfer, 'getData'>): PaletteEntry | undefined {
  const text = data.getData(KIND_DRAG_TYPE);
  return isPaletteEntry(text) ? text : undefined;
}
