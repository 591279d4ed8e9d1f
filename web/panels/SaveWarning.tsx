import { useRuntimeState } from '../state/runtimeState.ts';

/** Shown while the workspace cannot be saved: the run goes on, and the user should know. */
export function SaveWarning() {
  const saveState = useRuntimeState((s) => s.saveState);
  const failure = useRuntimeState((s) => s.failure);
  if (failure) {
    return (
      <p role="alert" className="warning">
        The workspace could not be opened: {failure}. Reload the page to try again.
      </p>
    );
  }
  if (saveState.saved) return null;
  return (
    <p role="alert" className="warning">
      {saveState.error}
    </p>
  );
}
