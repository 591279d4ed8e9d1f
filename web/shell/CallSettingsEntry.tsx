import { useState } from 'react';
import { CallSettingsDialog } from '../calls/CallSettingsDialog.tsx';
import { useCapability } from '../state/useCapability.ts';
import { IconButton } from '../ui/Button.tsx';
import { KeyRound } from '../ui/icons.tsx';
import { Unavailable } from '../ui/Unavailable.tsx';

/**
 * The top bar's way into the call settings (allowed origins and secrets), there only when the
 * runtime keeps them; else the reason is (docs/decisions.md, "Capabilities say why").
 */
export function CallSettingsEntry() {
  const capability = useCapability('callSettings');
  const [open, setOpen] = useState(false);
  if (capability !== true) return <Unavailable reason={capability} />;
  return (
    <>
      <IconButton
        label="Call settings"
        tooltip="Call settings: allowed origins and secrets"
        icon={<KeyRound size={16} />}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      />
      <CallSettingsDialog open={open} onOpenChange={setOpen} />
    </>
  );
}
