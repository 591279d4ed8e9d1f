/**
 * A seeded sequence of numbers in [0, 1), for `$random()` (docs/format.md#flows: drawn from a sequence
 * seeded per process and carried in the snapshot). Counter-based: draw `n` is a hash of the seed
 * and `n`, so the snapshot carries two numbers, the seed and how many draws were taken, and its
 * size never grows with them. Not for secrets: it is a reproducible sequence, nothing more.
 */

/** murmur3's 32-bit finaliser: every input bit affects every output bit. */
function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Draw number `n` of the sequence seeded with `seed`: 53 random bits as a number in [0, 1). */
export function randomAt(seed: number, n: number): number {
  const low = n >>> 0;
  const high = Math.floor(n / 0x1_0000_0000) >>> 0;
  const key = mix32(seed ^ mix32(high + 0x9e3779b9));
  const a = mix32(key ^ mix32(Math.imul(low, 2) + 0x632be59b));
  const b = mix32(a ^ mix32(Math.imul(low, 2) + 1 + 0x85ebca6b));
  return ((a >>> 5) * 0x4000000 + (b >>> 6)) / 0x20000000000000;
}

/** A seed for a process, from its id (FNV-1a): the same id always draws the same sequence. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
