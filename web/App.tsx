import { DesignerView } from './designer/ui/DesignerView.tsx';
import { InspectorPanel } from './inspector/InspectorPanel.tsx';
import { SaveWarning } from './panels/SaveWarning.tsx';

export function App() {
  return (
    <main className="app">
      <header className="app-header">
        <h1>wakeflow</h1>
        <SaveWarning />
      </header>
      <DesignerView />
      <InspectorPanel />
    </main>
  );
}
