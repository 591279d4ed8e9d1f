import { describe, expect, it } from 'vitest';
import { quietSeparatorsWhileHeld } from './quietSeparators.ts';

/** A pointer move at the document, as the separators' listener would get it: handled or not. */
function moveIsHandled(doc: EventTarget): boolean {
  const move = new Event('pointermove', { cancelable: true });
  doc.dispatchEvent(move);
  return move.defaultPrevented;
}

describe('quietSeparatorsWhileHeld', () => {
  it('rule: while a press begun on the canvas is held, pointer moves are handled, so the resize separators skip them', () => {
    const canvas = new EventTarget();
    const doc = new EventTarget();
    quietSeparatorsWhileHeld(canvas, doc);
    expect(moveIsHandled(doc)).toBe(false);
    canvas.dispatchEvent(new Event('pointerdown'));
    expect(moveIsHandled(doc)).toBe(true);
    expect(moveIsHandled(doc)).toBe(true);
    doc.dispatchEvent(new Event('pointerup'));
    expect(moveIsHandled(doc)).toBe(false);
  });

  it('rule: a press elsewhere (on a separator itself) leaves its moves to the separators', () => {
    const canvas = new EventTarget();
    const doc = new EventTarget();
    quietSeparatorsWhileHeld(canvas, doc);
    doc.dispatchEvent(new Event('pointerdown'));
    expect(moveIsHandled(doc)).toBe(false);
  });

  it('rule: a cancelled press ends it, and so does stopping', () => {
    const canvas = new EventTarget();
    const doc = new EventTarget();
    const stop = quietSeparatorsWhileHeld(canvas, doc);
    canvas.dispatchEvent(new Event('pointerdown'));
    doc.dispatchEvent(new Event('pointercancel'));
    expect(moveIsHandled(doc)).toBe(false);
    canvas.dispatchEvent(new Event('pointerdown'));
    stop();
    expect(moveIsHandled(doc)).toBe(false);
  });
});
