/**
 * The item a roving-tabindex widget moves to on a key (WAI-ARIA toolbar pattern): arrows step
 * and wrap around, Home and End jump to the ends. Undefined for keys that do not move.
 */
export function rovingIndex(key: string, current: number, count: number): number | undefined {
  if (count <= 0) return undefined;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (current + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
