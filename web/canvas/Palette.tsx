import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { KIND_DRAG_TYPE } from './kindDrag.ts';
import {
  ENTRY_NAMES,
  ENTRY_NOTES,
  PALETTE_ENTRIES,
  type PaletteEntry,
} from '../designer/paletteEntries.ts';
import { rovingIndex } from '../ui/rovingIndex.ts';
import './nodes/nodes.css';
import { CallIcon, KindIcon } from '../ui/icons.tsx';

export interface PaletteProps {
  /** Adds a node of this kind, or a Call (the canvas adds it at the centre of the view). */
  onAdd: (kind: PaletteEntry) => void;
  /** How the items are laid out; arrow keys of both directions move either way. */
  orientation?: 'horizontal' | 'vertical';
}

/**
 * The seven node kinds and a Call (paletteEntries.ts) as a toolbar: click (or Enter, Space) adds one at the centre, dragging
 * one onto the canvas adds it where it is dropped. One item is in the tab order at a time and
 * arrow keys move between them (WAI-ARIA toolbar pattern).
 */
export function Palette({ onAdd, orientation = 'horizontal' }: PaletteProps) {
  const [active, setActive] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = rovingIndex(event.key, active, PALETTE_ENTRIES.length);
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
    buttons.current[next]?.focus();
  };

  const onDragStart = (event: DragEvent<HTMLButtonElement>, kind: PaletteEntry) => {
    event.dataTransfer.setData(KIND_DRAG_TYPE, kind);
    event.dataTransfer.effectAllowed = 'move';
  };

  return (
    <div
      className={`wf-palette wf-palette--${orientation}`}
      role="toolbar"
      aria-label="Node kinds"
      aria-orientation={orientation}
      onKeyDown={onKeyDown}
    >
      {PALETTE_ENTRIES.map((kind, i) => (
        <button
          key={kind}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          className={`wf-palette__item wf-palette__item--${kind}`}
          aria-label={`Add ${ENTRY_NAMES[kind]}`}
          title={`Add ${ENTRY_NAMES[kind]}${ENTRY_NOTES[kind] ? ` (${ENTRY_NOTES[kind]})` : ''}: click, or drag onto the canvas`}
          tabIndex={i === active ? 0 : -1}
          draggable
          onDragStart={(event) => onDragStart(event, kind)}
          onFocus={() => setActive(i)}
          onClick={() => onAdd(kind)}
        >
          <span className="wf-palette__icon" aria-hidden="true">
            {kind === 'call' ? <CallIcon /> : <KindIcon kind={kind} />}
          </span>
          {ENTRY_NAMES[kind]}
        </button>
      ))}
    </div>
  );
}
