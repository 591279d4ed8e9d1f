import { DesignerToolbar } from '../designer/ui/DesignerToolbar.tsx';
import { SaveWarning } from '../panels/SaveWarning.tsx';
import { IconButton } from '../ui/Button.tsx';
import { PanelBottom, PanelLeft, PanelRight, Zap } from '../ui/icons.tsx';
import { CallSettingsEntry } from './CallSettingsEntry.tsx';
import { FlowTitle } from './FlowTitle.tsx';
import { SaveState } from './SaveState.tsx';
import { ServerEntry } from './ServerEntry.tsx';
import { openHelp, useShell, useShellStore } from '../state/shellState.ts';
import { StartButton } from './StartButton.tsx';
import { ThemeMenu } from './ThemeMenu.tsx';

export interface PanelToggles {
  sidebar: () => void;
  properties: () => void;
  run: () => void;
}

/** The top bar: the app, the open flow's name and save state, its actions, and Start. */
export function TopBar({
  onImportFile,
  toggles,
}: {
  onImportFile: (file: File) => void;
  toggles: PanelToggles;
}) {
  const collapsed = useShell((s) => s.collapsed);
  const shell = useShellStore();
  return (
    <header className="top-bar">
      <h1 className="top-bar__brand">
        <Zap size={16} aria-hidden="true" />
        wakeflow
      </h1>
      <FlowTitle />
      <SaveState />
      <SaveWarning />
      <div className="top-bar__actions">
        <DesignerToolbar onImportFile={onImportFile} onHelp={() => openHelp(shell)} />
        <StartButton />
        <span className="designer-toolbar__divider" aria-hidden="true" />
        <div className="top-bar__panels" role="group" aria-label="Panels">
          <IconButton
            label={collapsed.sidebar ? 'Show flows and palette' : 'Hide flows and palette'}
            icon={<PanelLeft size={16} />}
            aria-pressed={!collapsed.sidebar}
            onClick={toggles.sidebar}
          />
          <IconButton
            label={collapsed.run ? 'Show run view' : 'Hide run view'}
            icon={<PanelBottom size={16} />}
            aria-pressed={!collapsed.run}
            onClick={toggles.run}
          />
          <IconButton
            label={collapsed.properties ? 'Show properties' : 'Hide properties'}
            icon={<PanelRight size={16} />}
            aria-pressed={!collapsed.properties}
            onClick={toggles.properties}
          />
        </div>
        <ServerEntry />
        <CallSettingsEntry />
        <ThemeMenu />
      </div>
    </header>
  );
}
