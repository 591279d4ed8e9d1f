/** The first Tab stops of the workbench: straight to the canvas's first node, or the properties. */
export function SkipLinks() {
  return (
    <nav className="skip-links" aria-label="Skip links">
      <a href="#flow-canvas" onClick={skipToCanvas}>
        Skip to the canvas
      </a>
      <a href="#properties">Skip to the properties</a>
    </nav>
  );
}

/** Focuses the canvas's first node (or the canvas), where the keyboard can start drawing. */
function skipToCanvas(e: { preventDefault: () => void }) {
  e.preventDefault();
  const canvas = document.getElementById('flow-canvas');
  const first = canvas?.querySelector<HTMLElement>('.react-flow__node[tabindex]');
  (first ?? canvas?.querySelector<HTMLElement>('.react-flow') ?? canvas)?.focus();
}
