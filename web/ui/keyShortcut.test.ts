import { describe, expect, it } from 'vitest';
import { matchesShortcut } from './keyShortcut.ts';

const press = (init: Partial<KeyboardEvent>) =>
  ({ ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...init }) as KeyboardEvent;

describe('matchesShortcut', () => {
  it('rule: a digit is matched by its key’s place, so Shift+1 is Shift+1 whatever the layout types', () => {
    expect(matchesShortcut(press({ key: '!', code: 'Digit1', shiftKey: true }), 'Shift+1')).toBe(
      true,
    );
    expect(matchesShortcut(press({ key: '1', code: 'Digit1' }), 'Shift+1')).toBe(false);
  });

  it('rule: every modifier not named must be up; Ctrl stands for Command too', () => {
    expect(matchesShortcut(press({ key: 'L', code: 'KeyL', shiftKey: true }), 'Shift+L')).toBe(
      true,
    );
    expect(
      matchesShortcut(press({ key: 'L', code: 'KeyL', shiftKey: true, ctrlKey: true }), 'Shift+L'),
    ).toBe(false);
    expect(matchesShortcut(press({ key: 'Enter', metaKey: true }), 'Ctrl+Enter')).toBe(true);
    expect(matchesShortcut(press({ key: 'F6', shiftKey: true }), 'F6')).toBe(false);
    expect(matchesShortcut(press({ key: 'F6', shiftKey: true }), 'Shift+F6')).toBe(true);
  });
});
