import { useRuntimeState } from '../state/runtimeState.ts';
import { CircleCheck } from '../ui/icons.tsx';

/** "Saved" while every change is on disk; SaveWarning says what is wrong otherwise. */
export function SaveState() {
  const saved = useRuntimeState((s) => s.saveState.saved && s.failure === undefined);
  const ready = useRuntimeState((s) => s.ready);
  if (!saved) return null;
  return (
    <span className="save-state" title="Every change is saved in this browser">
      <CircleCheck size={14} aria-hidden="true" />
      {ready ? 'Saved' : 'Opening…'}
    </span>
  );
}
