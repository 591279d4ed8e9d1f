/** Quotes a name for a message, cut short so that a hostile id can never flood a line. */
export function quote(name: string, max = 60): string {
  return JSON.stringify(name.length > max ? `${name.slice(0, max)}…` : name);
}
