import { IconButton } from '../ui/Button.tsx';
import { Check, Monitor, Moon, Sun } from '../ui/icons.tsx';
import { Menu } from '../ui/Menu.tsx';
import { setThemeChoice, useTheme, useThemeChoice, type ThemeChoice } from '../ui/theme.ts';

const CHOICES: [ThemeChoice, string, typeof Sun][] = [
  ['system', 'Follow the system', Monitor],
  ['light', 'Light', Sun],
  ['dark', 'Dark', Moon],
];

/** Light, dark, or following the system (the default). */
export function ThemeMenu() {
  const theme = useTheme();
  const choice = useThemeChoice();
  return (
    <Menu
      label="Theme"
      align="end"
      items={CHOICES.map(([value, label, Icon]) => ({
        label,
        icon: value === choice ? <Check size={14} /> : <Icon size={14} />,
        onSelect: () => setThemeChoice(value),
      }))}
      trigger={
        <IconButton
          label="Theme"
          tooltip={`Theme: ${choice === 'system' ? `following the system (${theme})` : theme}`}
          icon={theme === 'dark' ? <Moon size={16} /> : <Sun size={16} />}
        />
      }
    />
  );
}
