import { Workbench } from './shell/Workbench.tsx';

export function App() {
  return <Workbench />;
}
