import { NODE_KINDS, type NodeKind } from '../../shared/schema.ts';

/** The drag data type that carries a node kind from the palette to the canvas. */
export const KIND_DRAG_TYPE = 'application/wakeflow-kind';

/**
 * The node kind a drop carries, or undefined when it carries none: drops can come from other
 * pages and apps, so the text is checked against the kinds rather than trusted.
 */
export function kindFromDrag(data: Pick<DataTransfer, 'getData'>): NodeKind | undefined {
  const text = data.getData(KIND_DRAG_TYPE);
  return (NODE_KINDS as readonly string[]).includes(text) ? (text as NodeKind) : undefined;
}
