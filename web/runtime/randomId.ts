/** Random bits in a process's or a context's id (docs/decisions.md#ids-of-96-random-bits). */
export const ID_BITS = 96;

/**
 * A new id of a workspace's process (`p-…`) or context (`ctx-…`): 96 random bits as 24 hex
 * digits. Ids come from every tab's worker at once with nothing between them to count, so they
 * must not collide by chance: at 96 bits a billion ids collide with a chance of about 1 in 10¹¹,
 * where the 32 bits they had collided about once in 90 workspaces of 10,000 processes.
 */
export function randomId(kind: 'process' | 'context'): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ID_BITS / 8));
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${kind === 'process' ? 'p' : 'ctx'}-${hex}`;
}
