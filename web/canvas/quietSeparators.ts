/**
 * While a press that began on the canvas is held (a pan, a node's drag, a connection being
 * drawn), every pointer move is marked handled (`preventDefault`, which a pointer move has no
 * default action for). The workbench's resize separators (react-resizable-panels) pass over a
 * handled move: otherwise each move of a pan looked for a separator under the pointer, reading
 * the layout of every panel, and a pan that crossed one swapped a cursor style sheet for the
 * whole document in, then out, each a style recalculation of every element in one frame.
 * React Flow follows mouse moves (d3-zoom, d3-drag, its connection line), not pointer moves, and
 * asks none of them whether they were handled. Returns the function that stops it.
 */
export function quietSeparatorsWhileHeld(canvas: EventTarget, doc: EventTarget): () => void {
  let held = false;
  const press = () => void (held = true);
  const release = () => void (held = false);
  const move = (e: Event) => {
    if (held) e.preventDefault();
  };
  canvas.addEventListener('pointerdown', press, { capture: true });
  // The press may end anywhere (the pointer leaves the canvas while a pan goes on).
  doc.addEventListener('pointerup', release, { capture: true });
  doc.addEventListener('pointercancel', release, { capture: true });
  // Capture on the document: before the separators' own listener, wherever the pointer is.
  doc.addEventListener('pointermove', move, { capture: true });
  return () => {
    canvas.removeEventListener('pointerdown', press, { capture: true });
    doc.removeEventListener('pointerup', release, { capture: true });
    doc.removeEventListener('pointercancel', release, { capture: true });
    doc.removeEventListener('pointermove', move, { capture: true });
  };
}
