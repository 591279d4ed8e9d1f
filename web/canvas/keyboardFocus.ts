/**
 * Which element the keyboard put the focus on (Tab, or a keyboard action that focuses what it
 * made), as against a click. `:focus-visible` cannot tell: a node focused by a click turns
 * "visible" the moment Shift is pressed for the next Shift+click, which leaves it focused.
 */
export function trackKeyboardFocus(doc: Document): {
  focused: () => Element | null;
  stop: () => void;
} {
  let pointerDown = false;
  let keyboardFocused: Element | null = null;
  const down = () => {
    pointerDown = true;
  };
  const up = () => {
    pointerDown = false;
  };
  // A pointer press focuses on its way down: what gets the focus meanwhile was clicked.
  const focusIn = (e: FocusEvent) => {
    keyboardFocused = pointerDown ? null : (e.target as Element | null);
  };
  const focusOut = () => {
    keyboardFocused = null;
  };
  doc.addEventListener('pointerdown', down, true);
  doc.addEventListener('pointerup', up, true);
  doc.addEventListener('pointercancel', up, true);
  doc.addEventListener('focusin', focusIn, true);
  doc.addEventListener('focusout', focusOut, true);
  return {
    focused: () => (keyboardFocused === doc.activeElement ? keyboardFocused : null),
    stop: () => {
      doc.removeEventListener('pointerdown', down, true);
      doc.removeEventListener('pointerup', up, true);
      doc.removeEventListener('pointercancel', up, true);
      doc.removeEventListener('focusin', focusIn, true);
      doc.removeEventListener('focusout', focusOut, true);
    },
  };
}
