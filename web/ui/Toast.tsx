import { Toaster as SonnerToaster, toast } from 'sonner';
import { useTheme } from './theme.ts';

/** Where toasts appear: bottom right, in the app's theme, each one read out as a status. */
export function Toaster() {
  const theme = useTheme();
  return (
    <SonnerToaster
      theme={theme}
      position="bottom-right"
      closeButton
      toastOptions={{ className: 'wf-toast' }}
    />
  );
}

/** Short confirmations of what just happened ("Flow duplicated"); errors stay until closed. */
export const notify = {
  done: (message: string) => toast.success(message),
  info: (message: string) => toast(message),
  failed: (message: string) => toast.error(message, { duration: Infinity }),
};
