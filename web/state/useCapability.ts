import type { Capability, CapabilityName } from '../runtime/workbenchRuntime.ts';
import { useRuntime } from './runtimeConnection.ts';

/**
 * Whether this tab's runtime can do `name`: `true`, or the one line saying why not, which the
 * view shows in the feature's place (ui/Unavailable.tsx; docs/decisions.md, "Capabilities say
 * why"). Until the runtime opens it is `true`: the controls wait for it as they did, and hiding
 * them for that moment would make the page jump.
 */
export function useCapability(name: CapabilityName): Capability {
  return useRuntime()?.capabilities[name] ?? true;
}
