import { statusOf } from '../../runtime/engine/waits.ts';
import type { ProcessRecord } from '../../runtime/supervisor/records.ts';

/**
 * A process's status in words a designer reads: one stopped between two steps (started paused,
 * or stepped) is "paused", since Step or Run goes on from there; other statuses are as stored.
 */
export function statusLabel(record: Pick<ProcessRecord, 'status' | 'snapshot'>): string {
  if (record.status === 'stopped' && statusOf(record.snapshot) === 'running') return 'paused';
  return record.status;
}

/** What each status means, for its tooltip. */
export const STATUS_HINTS: Readonly<Record<string, string>> = {
  running: 'running its nodes now',
  waiting: 'asleep at a continue-after until a timer, an event or a person wakes it',
  paused: 'paused between two steps: Step runs one node, Run goes on to the next stop',
  stopped: 'stopped: it does not wake until Resume',
  done: 'reached an end node',
  failed: 'a node failed: Retry runs it again',
  'flow-changed': 'its flow changed while it slept: choose how it goes on',
  cancelled: 'cancelled: it will not run again',
};
