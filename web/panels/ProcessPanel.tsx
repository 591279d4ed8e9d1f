import { ProcessList } from './ProcessList.tsx';
import { StartProcessForm } from './StartProcessForm.tsx';

/** Processes of the workspace: start one, watch them sleep and wake. */
export function ProcessPanel() {
  return (
    <section aria-labelledby="processes-heading" className="panel">
      <h2 id="processes-heading">Processes</h2>
      <StartProcessForm />
      <ProcessList />
    </section>
  );
}
