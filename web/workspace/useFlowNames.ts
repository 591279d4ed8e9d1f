import { useMemo } from 'react';
import { useRuntimeState } from '../state/runtimeState.ts';

const SEP = '\u0000';

/**
 * The workspace's flows as id and name, changing only when an id or a name does. The flows come
 * from the runtime's worker as structured clones, new objects on every read, so a shallow
 * comparison of them (useShallow) never holds: this compares their ids and names as one string.
 */
export function useFlowNames(): { id: string; name: string }[] {
  const key = useRuntimeState((s) =>
    s.flows.map((f) => `${f.id}${SEP}${f.name ?? f.id}`).join(SEP),
  );
  return useMemo(() => {
    if (key === '') return [];
    const parts = key.split(SEP);
    const out: { id: string; name: string }[] = [];
    for (let i = 0; i < parts.length; i += 2) out.push({ id: parts[i]!, name: parts[i + 1]! });
    return out;
  }, [key]);
}
