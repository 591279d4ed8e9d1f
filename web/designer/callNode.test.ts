import { describe, expect, it } from 'vitest';
import type { FlowNode } from '../../shared/schema.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import { callNodeSummary } from './callNode.ts';
import { newNodeOf } from './newNode.ts';

const wait = (on: Extract<FlowNode, { kind: 'continue-after' }>['on']): FlowNode => ({
  id: 'pay',
  kind: 'continue-after',
  on,
});

describe('a continue-after drawn as a Call (docs/app.md#calls)', () => {
  it('is one whose single trigger is a call: its method and the host its URL writes out', () => {
    expect(
      callNodeSummary(
        wait([
          { id: 'c', call: { method: 'POST', url: "'https://shop.example/api/' & order.id" } },
        ]),
      ),
    ).toEqual({
      method: 'POST',
      host: 'shop.example',
      url: "'https://shop.example/api/' & order.id",
    });
  });

  it('says GET when no method is written, and honestly when no host can be read', () => {
    expect(callNodeSummary(wait([{ id: 'c', call: { url: 'config.endpoint' } }]))).toMatchObject({
      method: 'GET',
      host: 'a computed URL',
    });
    expect(callNodeSummary(wait([{ id: 'c', call: { url: '  ' } }]))?.host).toBe('no URL yet');
  });

  it('is not a call raced by another trigger, a wait without a call, or another kind', () => {
    const call = { id: 'c', call: { url: "'https://a.example'" } };
    expect(callNodeSummary(wait([call, { id: 'late', timer: 'PT2M' }]))).toBeUndefined();
    expect(callNodeSummary(wait([{ id: 't', timer: 'PT1H' }]))).toBeUndefined();
    expect(callNodeSummary({ id: 'w', kind: 'work', set: {} })).toBeUndefined();
  });
});

describe("the palette's Call", () => {
  it('is a continue-after with one GET call, an empty URL, and its outcome into a fresh path', () => {
    const others: FlowNode[] = [
      { id: 'w', kind: 'work', set: { response1: '1', 'response2.x': '2' } },
    ];
    expect(newNodeOf('call', 'call1', others)).toEqual({
      id: 'call1',
      kind: 'continue-after',
      on: [{ id: 'call', call: { method: 'GET', url: '' }, into: 'response3' }],
    });
    expect(callNodeSummary(newNodeOf('call', 'call1', []))).toEqual({
      method: 'GET',
      host: 'no URL yet',
      url: '',
    });
  });

  it('is flagged by validation until its URL is written, on the URL', () => {
    const problems = validateFlow({
      format: 'flow/1',
      id: 'f',
      nodes: [{ id: 'start', kind: 'start' }, newNodeOf('call', 'call1', [])],
      edges: [{ id: 'e1', from: 'start', to: 'call1' }],
    }).filter((p) => p.nodeId === 'call1');
    expect(problems.map((p) => p.message)).toEqual([
      'trigger "call" url: the expression is empty; write a JSONata expression such as `count + 1`',
    ]);
  });

  it('leaves every node kind as it was made before', () => {
    expect(newNodeOf('continue-after', 'wait1', [])).toEqual({
      id: 'wait1',
      kind: 'continue-after',
      on: [{ id: 'timer', timer: 'PT1H' }],
    });
  });
});
