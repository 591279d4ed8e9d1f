import { Handle, Position } from '@xyflow/react';
import type { ReactNode } from 'react';
import type { FlowNodeData } from '../../designer/canvasTypes.ts';
import {
  countProblems,
  countWarnings,
  listIds,
  nodeAriaLabel,
  nodeLabel,
} from '../../designer/describeNode.ts';
import { KIND_NAMES } from '../../designer/kinds.ts';
import { ChangeBadge } from './ChangeBadge.tsx';
import { RanMark } from './RanMark.tsx';
import { RunBadge } from './RunBadge.tsx';
import { SourceHandle } from './SourceHandle.tsx';
import './nodes.css';
import { KindIcon, ProblemIcon } from '../../ui/icons.tsx';

export interface NodeShellProps {
  data: FlowNodeData;
  selected: boolean;
  isConnectable: boolean;
  /** Whether edges may come in (every kind but start). */
  target: boolean;
  /**
   * Where the general source handle sits: none (end), the middle of the right side, or beside
   * the header (continue-after, whose triggers have handles of their own further down).
   */
  source: 'none' | 'middle' | 'header';
  /** Whether to list `depends` in the footer; a join shows it as its body instead. */
  showDepends?: boolean;
  /** What the header names instead of the node's kind: a continue-after drawn as a Call. */
  badge?: { icon: ReactNode; name: string } | undefined;
  children?: ReactNode;
}

/**
 * The frame every node kind shares: handles, kind badge, label and id, problems and accessible
 * name. Flows run left to right: edges come in on the left and leave on the right.
 */
export function NodeShell({
  data,
  selected,
  isConnectable,
  target,
  source,
  showDepends = true,
  badge,
  children,
}: NodeShellProps) {
  const { node, problems, change } = data;
  const warnings = data.warnings ?? [];
  const label = nodeLabel(node);
  const depends = node.depends ?? [];
  const classes = [
    'wf-node',
    `wf-node--${node.kind}`,
    selected ? 'wf-node--selected' : '',
    problems.length > 0 ? 'wf-node--problems' : '',
    warnings.length > 0 ? 'wf-node--warnings' : '',
    change ? `wf-node--${change}` : '',
  ];
  return (
    <div
      className={classes.filter(Boolean).join(' ')}
      role="group"
      aria-label={`${nodeAriaLabel(node, problems, warnings)}${change ? `, ${change} since the process slept` : ''}`}
    >
      {target && (
        <Handle
          type="target"
          position={Position.Left}
          className="wf-handle"
          isConnectable={isConnectable}
          // A handle starts or ends an edge when clicked (React Flow's connect-on-click).
          role="button"
          aria-label={`Connect into ${node.id}`}
        />
      )}
      {/* The general source handle comes first in the DOM: an edge with no trigger (no handle
          id) attaches to the first source handle React Flow measured. */}
      {source !== 'none' && (
        <SourceHandle
          node={node.id}
          handle={null}
          className={`wf-handle${source === 'header' ? ' wf-handle--header' : ''}`}
          isConnectable={isConnectable}
          label={`Connect from ${node.id}`}
        />
      )}
      <div className="wf-node__header">
        <span className="wf-node__kind">
          {badge ? badge.icon : <KindIcon kind={node.kind} size={12} />}{' '}
          {badge ? badge.name : KIND_NAMES[node.kind]}
        </span>
        <ChangeBadge change={change} />
        {problems.length > 0 && (
          <span className="wf-node__problems" title={problems.join('\n')}>
            <span aria-hidden="true">
              <ProblemIcon /> {problems.length}
            </span>
            <span className="wf-visually-hidden">
              {countProblems(problems.length)}: {problems.join('; ')}
            </span>
          </span>
        )}
        {warnings.length > 0 && (
          <span className="wf-node__warnings" title={warnings.join('\n')}>
            <span aria-hidden="true">! {warnings.length}</span>
            <span className="wf-visually-hidden">
              {countWarnings(warnings.length)}: {warnings.join('; ')}
            </span>
          </span>
        )}
      </div>
      <div className={label !== undefined ? 'wf-node__label' : 'wf-node__label wf-node__label--id'}>
        {label ?? node.id}
      </div>
      {label !== undefined && <div className="wf-node__id">{node.id}</div>}
      {children}
      <RunBadge nodeId={node.id} />
      <RanMark nodeId={node.id} />
      {showDepends && depends.length > 0 && (
        <p className="wf-node__depends">
          <span className="wf-node__muted">waits for</span> {listIds(depends)}
        </p>
      )}
    </div>
  );
}
