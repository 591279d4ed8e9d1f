/**
 * The workbench's regions in the order F6 visits them (Shift+F6 the other way), as desktop apps
 * move between their panes: the flow list, the canvas, the properties and the run view. Each is
 * found by a selector of its own landmark; one that is collapsed is passed over.
 */
export const REGIONS = [
  { name: 'the flow list', selector: '.designer-side' },
  { name: 'the canvas', selector: '#flow-canvas' },
  { name: 'the properties', selector: '.designer-props' },
  { name: 'the run view', selector: '.run-view' },
] as const;

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea, [tabindex="0"]';

/** Where focus goes in a region: the canvas's first node, else the first stop of its tab order. */
function targetIn(region: HTMLElement): HTMLElement {
  const node = region.querySelector<HTMLElement>('.react-flow__node[tabindex]');
  return node ?? region.querySelector<HTMLElement>(FOCUSABLE) ?? region;
}

/** Moves focus to the next region present (or the one before, `back`); the index it went to. */
export function focusNextRegion(doc: Document, back: boolean): number | undefined {
  const present = REGIONS.map((r) => doc.querySelector<HTMLElement>(r.selector));
  const active = doc.activeElement;
  const at = present.findIndex((el) => el !== null && active !== null && el.contains(active));
  const n = REGIONS.length;
  for (let step = 1; step <= n; step++) {
    const i = ((((at === -1 ? (back ? 0 : -1) : at) + (back ? -step : step)) % n) + n) % n;
    const region = present[i];
    if (!region) continue;
    const target = targetIn(region);
    // A region's own element takes focus only when told it may (it is not in the tab order).
    if (target === region && !region.hasAttribute('tabindex')) region.tabIndex = -1;
    target.focus();
    return i;
  }
  return undefined;
}
