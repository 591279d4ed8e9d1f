import { create } from 'zustand';
import type { Flow } from '../../shared/schema.ts';
import type {
  ContextChange,
  JournalEntry,
  ProcessRecord,
} from '../../runtime/supervisor/records.ts';
import type { Runtime } from '../runtime/createRuntime.ts';
import { overlayOf, type NodeRunState } from './overlay.ts';

/** What the inspector shows of the selected process, read from the store on every change. */
export interface Inspection {
  record: ProcessRecord;
  context: { version: number; value: unknown };
  changes: ContextChange[];
  journal: JournalEntry[];
  /** The flows the process runs on, by id. */
  flows: Map<string, Flow>;
  /** Its position, node by node, on its top-level flow's canvas. */
  overlay: Map<string, NodeRunState>;
}

interface InspectorState {
  selected: string | undefined;
  inspection: Inspection | undefined;
  /** The clock as this tab sees it. */
  clock: { mode: 'real' | 'virtual'; now: number };
  /** A long advance in progress: how far it got, and how to cancel it. */
  advancing:
    | { from: number; target: number; reached: number; wakes: number; cancel: () => void }
    | undefined;
  /** The last control that could not be done, and why. */
  error: string | undefined;
}

export const useInspector = create<InspectorState>(() => ({
  selected: undefined,
  inspection: undefined,
  clock: { mode: 'real', now: Date.now() },
  advancing: undefined,
  error: undefined,
}));

export function selectProcess(id: string | undefined): void {
  useInspector.setState({ selected: id, inspection: undefined, error: undefined });
}

/** Reads the selected process afresh; called on every change, here or in another tab. */
export async function refreshInspection(runtime: Runtime): Promise<void> {
  const { clock, supervisor, store } = runtime;
  useInspector.setState({ clock: { mode: clock.mode, now: clock.now() } });
  const id = useInspector.getState().selected;
  if (!id) return;
  const record = await store.getProcess(id);
  if (!record) {
    useInspector.setState({ inspection: undefined });
    return;
  }
  const [context, changes, journal, flows] = await Promise.all([
    store.getContext(record.contextId),
    store.contextChanges(record.contextId),
    store.journal(id),
    supervisor.sleptOn(record),
  ]);
  if (useInspector.getState().selected !== id) return;
  useInspector.setState({
    inspection: {
      record,
      context: { version: context?.version ?? 0, value: context?.value ?? null },
      changes,
      journal,
      flows,
      overlay: overlayOf(record, journal, flows),
    },
  });
}
