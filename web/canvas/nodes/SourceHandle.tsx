import { Handle, Position } from '@xyflow/react';
import { createContext, useContext, type KeyboardEvent } from 'react';

/** Where a connection begins: a node, and the handle it leaves by (null: the general one). */
export interface ConnectFrom {
  node: string;
  handle: string | null;
}

/**
 * Starts a connection chosen from a list, as the connect key does on a focused node; the canvas
 * provides it (its picker). `origin` is where the focus goes back to if the list is dismissed.
 */
export const KeyboardConnect = createContext<
  ((from: ConnectFrom, origin: HTMLElement) => void) | undefined
>(undefined);

interface SourceHandleProps {
  node: string;
  /** The trigger's handle id, for a continue-after's trigger row; null for the general handle. */
  handle: string | null;
  isConnectable: boolean;
  className: string;
  label: string;
  title?: string;
}

/**
 * A source handle the keyboard reaches too: a tab stop after its node, with a visible focus ring
 * (canvas.css), named for what it does; Enter or Space on it opens the list that picks the
 * target, with its trigger chosen. A mouse drags from it or clicks it (connect-on-click).
 */
export function SourceHandle({
  node,
  handle,
  isConnectable,
  className,
  label,
  title,
}: SourceHandleProps) {
  const start = useContext(KeyboardConnect);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if ((e.key !== 'Enter' && e.key !== ' ') || !start) return;
    // Not the node's own Enter (select it) nor a page scroll for Space.
    e.preventDefault();
    e.stopPropagation();
    start({ node, handle }, e.currentTarget);
  };
  return (
    <Handle
      type="source"
      position={Position.Right}
      id={handle}
      className={className}
      isConnectable={isConnectable}
      title={title}
      // A handle starts or ends an edge when clicked (React Flow's connect-on-click).
      role="button"
      aria-label={label}
      tabIndex={isConnectable && start ? 0 : undefined}
      onKeyDown={onKeyDown}
    />
  );
}
