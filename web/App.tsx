import { DesignerView } from './designer/ui/DesignerView.tsx';
import { ProcessPanel } from './panels/ProcessPanel.tsx';
import { SaveWarning } from './panels/SaveWarning.tsx';

export function App() {
  return (
    <main className="app">
      <header className="app-header">
        <h1>wakeflow</h1>
        <SaveWarning />
      </header>
      <DesignerView />
      <ProcessPanel />
    </main>
  );
}
