import { describe, expect, it } from 'vitest';
import { dependsChoices, toggleDepends } from './dependsChoices.ts';

describe('depends choices', () => {
  const ids = new Set(['start', 'a', 'b', 'both', 'after']);

  it('lists upstream nodes in order, ticked when named', () => {
    expect(dependsChoices('both', ['start', 'a', 'b'], ['b'], ids)).toEqual([
      { id: 'start', checked: false },
      { id: 'a', checked: false },
      { id: 'b', checked: true },
    ]);
  });

  it('keeps named nodes that are not upstream, so that they can be unticked', () => {
    expect(dependsChoices('both', ['a'], ['after', 'gone', 'both'], ids)).toEqual([
      { id: 'a', checked: false },
      { id: 'after', checked: true, problem: 'not-upstream' },
      { id: 'gone', checked: true, problem: 'missing' },
      { id: 'both', checked: true, problem: 'itself' },
    ]);
  });

  it('ticks a node at the end and unticks it in place', () => {
    expect(toggleDepends(['a', 'b'], 'start', true)).toEqual(['a', 'b', 'start']);
    expect(toggleDepends(['a', 'b'], 'a', false)).toEqual(['b']);
    expect(toggleDepends(['a'], 'a', true)).toEqual(['a']);
  });
});
