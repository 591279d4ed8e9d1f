import { describe, expect, it } from 'vitest';
import type { FlowEdge, Trigger } from '../../../shared/schema.ts';
import { flowNodeSchema } from '../../../shared/schema.ts';
import {
  edgesAfterTriggerChange,
  fieldNameProblem,
  newHumanField,
  newTrigger,
  setCall,
  setHuman,
  setHumanField,
  setTriggerField,
  triggerIdProblem,
  triggerKind,
} from './triggerEdits.ts';

const on: Trigger[] = [
  { id: 'daily', timer: 'PT24H' },
  { id: 'kick', event: 'prices.changed', into: 'lastChange' },
];

describe('trigger edits', () => {
  it('makes new triggers of each kind that the format accepts, with fresh ids', () => {
    for (const kind of ['timer', 'event', 'human', 'call'] as const) {
      const t = newTrigger(kind, on);
      expect(triggerKind(t)).toBe(kind);
      const node = { id: 'w', kind: 'continue-after', on: [...on, t] };
      expect(flowNodeSchema.safeParse(node).success).toBe(true);
    }
    expect(newTrigger('timer', [{ id: 'timer1', timer: 'PT1H' }]).id).toBe('timer2');
  });

  it('reads a call trigger as a call, never as a human one, and edits its method, URL and timeout alone', () => {
    const call: Trigger = {
      id: 'charged',
      into: 'payment',
      call: {
        method: 'POST',
        url: "'https://shop.example/charge'",
        headers: { Authorization: "'Bearer ' & $secret('shop')" },
        retry: { max: 2 },
      },
    };
    expect(triggerKind(call)).toBe('call');
    const edited = setCall([call], 0, 'timeout', 'PT5S');
    expect(edited[0]).toEqual({ ...call, call: { ...call.call, timeout: 'PT5S' } });
    // An empty method goes back to the default (GET) by leaving the field out; the rest is kept.
    const noMethod = setCall(edited, 0, 'method', '')[0]!;
    expect(noMethod.call).toEqual({
      url: "'https://shop.example/charge'",
      headers: { Authorization: "'Bearer ' & $secret('shop')" },
      retry: { max: 2 },
      timeout: 'PT5S',
    });
    expect(noMethod).not.toHaveProperty('human');
    expect(
      flowNodeSchema.safeParse({ id: 'p', kind: 'continue-after', on: [noMethod] }).success,
    ).toBe(true);
  });

  it('refuses a trigger id the format refuses or another trigger has', () => {
    expect(triggerIdProblem(on, 0, '')).toBe('a trigger needs an id');
    expect(triggerIdProblem(on, 0, 'a/b')).toBe('an id must not contain "/"');
    expect(triggerIdProblem(on, 0, '__proto__')).toBe('"__proto__" is a reserved word');
    expect(triggerIdProblem(on, 0, 'kick')).toBe('another trigger of this node is called "kick"');
    expect(triggerIdProblem(on, 1, 'kick')).toBeUndefined();
  });

  it('sets a field, and an empty `into` removes it', () => {
    expect(setTriggerField(on, 0, 'timer', 'PT1H')[0]).toEqual({ id: 'daily', timer: 'PT1H' });
    expect(setTriggerField(on, 1, 'into', '')[1]).toEqual({ id: 'kick', event: 'prices.changed' });
    expect(on[1]!.into).toBe('lastChange');
  });

  it('edits a human trigger’s prompt and fields; an empty prompt or label goes', () => {
    const human = [newTrigger('human', [])];
    expect(setHuman(human, 0, { prompt: '' })[0]!.human).not.toHaveProperty('prompt');
    const fields = [...human[0]!.human!.fields, newHumanField(human[0]!.human!.fields)];
    expect(fields.map((f) => f.name)).toEqual(['approved', 'field1']);
    expect(setHumanField(fields, 1, { type: 'number', label: '' })[1]).toEqual({
      name: 'field1',
      type: 'number',
    });
    expect(fieldNameProblem(fields, 1, 'approved')).toBe('another field is called "approved"');
    expect(fieldNameProblem(fields, 1, '')).toBe('a field needs a name');
    expect(fieldNameProblem(fields, 1, 'amount')).toBeUndefined();
  });

  it('carries edges along when a trigger is renamed, and drops them when it is removed', () => {
    const edges: FlowEdge[] = [
      { id: 'e1', from: 'sleep', to: 'read', trigger: 'daily' },
      { id: 'e2', from: 'sleep', to: 'done', trigger: 'kick', when: 'x' },
      { id: 'e3', from: 'other', to: 'done', trigger: 'daily' },
      { id: 'e4', from: 'sleep', to: 'done' },
    ];
    expect(edgesAfterTriggerChange(edges, 'sleep', 'daily', 'nightly')).toEqual([
      { id: 'e1', from: 'sleep', to: 'read', trigger: 'nightly' },
      edges[1],
      edges[2],
      edges[3],
    ]);
    expect(edgesAfterTriggerChange(edges, 'sleep', 'kick', undefined).map((e) => e.id)).toEqual([
      'e1',
      'e3',
      'e4',
    ]);
  });
});
