import { useEffect, useState } from 'react';
import type { ProcessCounts } from '../../runtime/supervisor/store.ts';
import { useRuntime } from './runtimeConnection.ts';

const NONE: ProcessCounts = { total: 0, byStatus: {} };

/**
 * How many processes of a flow there are, per status, counted by the worker (no record read)
 * when the flow is shown and again after each change the runtime tells; one count in flight at
 * a time, and one more after it for the changes told meanwhile.
 */
export function useFlowCounts(flow: string | undefined): ProcessCounts {
  const runtime = useRuntime();
  const [counts, setCounts] = useState<{ flow?: string; counts: ProcessCounts }>({ counts: NONE });
  useEffect(() => {
    if (!runtime || flow === undefined) return;
    let live = true;
    let reading = false;
    let again = false;
    const read = () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      void runtime
        .processCounts(flow)
        .then((c) => {
          if (!live) return;
          setCounts((before) =>
            before.flow === flow && JSON.stringify(before.counts) === JSON.stringify(c)
              ? before
              : { flow, counts: c },
          );
        })
        .catch(() => undefined)
        .finally(() => {
          reading = false;
          if (again && live) {
            again = false;
            read();
          }
        });
    };
    read();
    const stop = runtime.onChange((change) => {
      if (change.flows || change.processes.length > 0) read();
    });
    return () => {
      live = false;
      stop();
    };
  }, [runtime, flow]);
  return counts.flow === flow ? counts.counts : NONE;
}
