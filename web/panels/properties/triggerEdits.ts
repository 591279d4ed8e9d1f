import {
  RESERVED_KEYS,
  type Call,
  type FlowEdge,
  type HumanField,
  type Trigger,
} from '../../../shared/schema.ts';
import { freshId } from '../../designer/newIds.ts';
import { removeAt, replaceAt } from './listEdits.ts';

export type TriggerKind = 'timer' | 'event' | 'human' | 'call';

export const triggerKind = (t: Trigger): TriggerKind =>
  t.timer !== undefined
    ? 'timer'
    : t.event !== undefined
      ? 'event'
      : t.call !== undefined
        ? 'call'
        : 'human';

/** A new trigger of a kind, with an id no other trigger of the node has and sensible fields. */
export function newTrigger(kind: TriggerKind, triggers: readonly Trigger[]): Trigger {
  const taken = new Set(triggers.map((t) => t.id));
  switch (kind) {
    case 'timer':
      return { id: freshId('timer', taken), timer: 'PT1H' };
    case 'event':
      return { id: freshId('event', taken), event: 'something.happened' };
    case 'human': {
      const id = freshId('approval', taken);
      return {
        id,
        human: {
          prompt: 'Approve?',
          fields: [{ name: 'approved', type: 'boolean', label: 'Approved' }],
        },
        into: id,
      };
    }
    case 'call': {
      const id = freshId('call', taken);
      return { id, call: { method: 'GET', url: "'https://example.com/'" }, into: id };
    }
  }
}

/**
 * Why `id` cannot name trigger `index`: the format refuses it (an empty id, "/", a reserved
 * key), or another trigger of the node has it, which would make edges from it ambiguous.
 */
export function triggerIdProblem(
  triggers: readonly Trigger[],
  index: number,
  id: string,
): string | undefined {
  if (id === '') return 'a trigger needs an id';
  if (id.includes('/')) return 'an id must not contain "/"';
  if (RESERVED_KEYS.includes(id)) return `"${id}" is a reserved word`;
  if (triggers.some((t, i) => i !== index && t.id === id)) {
    return `another trigger of this node is called "${id}"`;
  }
  return undefined;
}

/** Sets a field of trigger `index`; `undefined` or an empty text removes an optional field. */
export function setTriggerField(
  triggers: readonly Trigger[],
  index: number,
  field: 'id' | 'timer' | 'event' | 'into',
  value: string | undefined,
): Trigger[] {
  const t = triggers[index];
  if (t === undefined) return [...triggers];
  const next: Trigger = { ...t };
  if (value === undefined || (value === '' && field === 'into')) delete next[field];
  else next[field] = value;
  return replaceAt(triggers, index, next);
}

/** Changes a human trigger's prompt (empty removes it) or its form fields. */
export function setHuman(
  triggers: readonly Trigger[],
  index: number,
  change: { prompt?: string; fields?: HumanField[] },
): Trigger[] {
  const t = triggers[index];
  if (t?.human === undefined) return [...triggers];
  const human = { ...t.human, ...change };
  if (human.prompt === '') delete human.prompt;
  return replaceAt(triggers, index, { ...t, human });
}

/**
 * The edges after trigger `from` of node `nodeId` is renamed to `to` (`to` undefined: the trigger
 * is removed). An edge from a renamed trigger follows it; an edge from a removed trigger goes,
 * as an edge goes with its node, since the handle it was drawn from is gone.
 */
export function edgesAfterTriggerChange(
  edges: readonly FlowEdge[],
  nodeId: string,
  from: string,
  to: string | undefined,
): FlowEdge[] {
  const named = (e: FlowEdge) => e.from === nodeId && e.trigger === from;
  if (to === undefined) return edges.filter((e) => !named(e));
  return edges.map((e) => (named(e) ? { ...e, trigger: to } : e));
}

/** A form field with a name no other field of the trigger has. */
export function newHumanField(fields: readonly HumanField[]): HumanField {
  return { name: freshId('field', new Set(fields.map((f) => f.name))), type: 'string' };
}

/** Why `name` cannot name field `index`: empty (the format refuses it) or already taken. */
export function fieldNameProblem(
  fields: readonly HumanField[],
  index: number,
  name: string,
): string | undefined {
  if (name === '') return 'a field needs a name';
  if (fields.some((f, i) => i !== index && f.name === name)) {
    return `another field is called "${name}"`;
  }
  return undefined;
}

export function setHumanField(
  fields: readonly HumanField[],
  index: number,
  change: Partial<HumanField>,
): HumanField[] {
  const f = fields[index];
  if (f === undefined) return [...fields];
  const next: HumanField = { ...f, ...change };
  if (next.label === '') delete next.label;
  return replaceAt(fields, index, next);
}

export const removeHumanField = (fields: readonly HumanField[], index: number): HumanField[] =>
  removeAt(fields, index);

/**
 * Changes a call trigger's method, URL or timeout; an empty text removes an optional field (the
 * method then is GET, the timeout PT30S: docs/format.md#calls). Headers, body and retry are kept
 * as they are.
 */
export function setCall(
  triggers: readonly Trigger[],
  index: number,
  field: 'method' | 'url' | 'timeout',
  value: string,
): Trigger[] {
  const t = triggers[index];
  if (t?.call === undefined) return [...triggers];
  const call: Record<string, unknown> = { ...t.call };
  if (value === '' && field !== 'url') delete call[field];
  else call[field] = value;
  return replaceAt(triggers, index, { ...t, call: call as Call });
}
