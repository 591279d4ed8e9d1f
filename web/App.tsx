import { Workbench } from './shell/Workbench.tsx';
import { WorkbenchProvider, type WorkbenchParts } from './shell/WorkbenchProvider.tsx';

export function App({ parts }: { parts: WorkbenchParts }) {
  return (
    <WorkbenchProvider parts={parts}>
      <Workbench />
    </WorkbenchProvider>
  );
}
