import type { NodeKind } from '../../shared/schema.ts';

/** The name a designer reads for each kind, in the order the palette offers them. */
export const KIND_NAMES: Readonly<Record<NodeKind, string>> = {
  start: 'Start',
  work: 'Work',
  fanout: 'Fan-out',
  join: 'Join',
  'continue-after': 'Continue after',
  subflow: 'Sub-flow',
  end: 'End',
};

/** A glyph per kind; always decorative, next to the kind's name. */
export const KIND_ICONS: Readonly<Record<NodeKind, string>> = {
  start: '▶',
  work: '⚙',
  fanout: '⋔',
  join: '⋈',
  'continue-after': '◷',
  subflow: '❐',
  end: '■',
};
