import { Command } from 'cmdk';
import { useState, type KeyboardEvent } from 'react';
import { useDesigner, useDesignerActions } from '../designer/designerStore.ts';
import { triggerHandleId } from '../designer/canvasTypes.ts';
import { KIND_ICONS } from '../designer/kinds.ts';
import { ENTRY_NAMES, PALETTE_ENTRIES, type PaletteEntry } from '../designer/paletteEntries.ts';
import { CallIcon } from '../ui/icons.tsx';
import type { ConnectFrom } from './nodes/SourceHandle.tsx';

export type { ConnectFrom };

export interface ConnectPickerProps {
  from: ConnectFrom;
  /** Where a new node goes, in flow coordinates. */
  at: { x: number; y: number };
  /** Where the picker shows, in pixels from the canvas's top left corner. */
  screen: { x: number; y: number };
  /** Offer the flow's nodes as targets too (from the keyboard), not only new nodes. */
  existing: boolean;
  /** Called with the id of the node connected to, or undefined when dismissed. */
  onClose: (target: string | undefined) => void;
}

const NEW_KINDS = PALETTE_ENTRIES.filter((k) => k !== 'start');

/**
 * A searchable list that finishes a connection: to a node of the flow, or to a new node of a
 * kind, created where the connection was dropped. A continue-after's edge may leave by one of its
 * triggers, chosen first.
 */
export function ConnectPicker({ from, at, screen, existing, onClose }: ConnectPickerProps) {
  const source = useDesigner((s) => s.nodes.find((n) => n.id === from.node)?.data.node);
  const { addConnectedNode, connect } = useDesignerActions();
  const targets = useDesigner((s) => s.nodes)
    .map((n) => n.data.node)
    .filter((n) => n.kind !== 'start' && n.id !== from.node);
  const [handle, setHandle] = useState(from.handle);
  const triggers = source?.kind === 'continue-after' ? source.on : [];
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose(undefined);
    }
  };
  const to = (id: string) => {
    connect({ source: from.node, sourceHandle: handle, target: id, targetHandle: null });
    onClose(id);
  };
  const add = (kind: PaletteEntry) =>
    onClose(addConnectedNode(kind, at, { node: from.node, handle }));
  return (
    <div
      role="dialog"
      aria-label={`Connect from ${from.node}`}
      className="wf-picker nodrag nopan nowheel"
      style={{ left: screen.x, top: screen.y }}
      onKeyDown={onKeyDown}
    >
      {triggers.length > 0 && (
        <label className="wf-picker__trigger">
          Taken when{' '}
          <select
            value={handle ?? ''}
            onChange={(e) => setHandle(e.target.value === '' ? null : e.target.value)}
          >
            <option value="">any trigger fires</option>
            {triggers.map((t) => (
              <option key={t.id} value={triggerHandleId(t.id)}>
                trigger {t.id} fires
              </option>
            ))}
          </select>
        </label>
      )}
      <Command label={`Connect ${from.node} to`} loop>
        <Command.Input autoFocus placeholder="Search nodes and kinds…" />
        <Command.List>
          <Command.Empty>Nothing matches.</Command.Empty>
          {existing && targets.length > 0 && (
            <Command.Group heading="Connect to">
              {targets.map((n) => (
                <Command.Item
                  key={n.id}
                  value={`${n.id} ${n.label ?? ''}`}
                  onSelect={() => to(n.id)}
                >
                  <span aria-hidden="true">{KIND_ICONS[n.kind]} </span>
                  {n.id}
                  {n.label ? ` (${n.label})` : ''}
                </Command.Item>
              ))}
            </Command.Group>
          )}
          <Command.Group heading="A new node">
            {NEW_KINDS.map((k) => (
              <Command.Item key={k} value={`new ${ENTRY_NAMES[k]}`} onSelect={() => add(k)}>
                <span aria-hidden="true">
                  {k === 'call' ? <CallIcon size={12} /> : KIND_ICONS[k]}{' '}
                </span>
                New {ENTRY_NAMES[k]} node
              </Command.Item>
            ))}
          </Command.Group>
        </Command.List>
      </Command>
      <button type="button" onClick={() => onClose(undefined)}>
        Cancel
      </button>
    </div>
  );
}
