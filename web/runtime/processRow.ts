import type { ProcessRecord } from '../../runtime/supervisor/records.ts';
import type { ProcessView } from './runtimeProtocol.ts';

/**
 * A row of the process table: what it shows of a process, from its record (the worker) or from
 * a server's index row (remoteRuntime.ts), which hold the same fields.
 */
export const processRow = (
  p: Pick<ProcessRecord, 'id' | 'flow' | 'status' | 'due' | 'error' | 'wakes'>,
): ProcessView => ({
  id: p.id,
  flow: p.flow,
  status: p.status,
  due: p.due,
  error: p.error,
  wakes: p.wakes ?? 0,
});
