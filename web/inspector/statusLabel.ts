import { statusOf } from '../../runtime/engine/waits.ts';
import type { ProcessRecord } from '../../runtime/supervisor/records.ts';

/** What each status means, for its tooltip. */
export const STATUS_HINTS: Readonly<Record<string, string>> = {
  running: 'running its nodes now',
  waiting: 'asleep at a continue-after until a timer, an event or a person wakes it',
  stopped: 'stopped: it does not wake until Resume',
  done: 'reached an end node',
  failed: 'a node failed: Retry runs it again',
  'flow-changed': 'its flow changed while it slept: choose how it goes on',
  cancelled: 'cancelled: it will not run again',
};

/**
 * What a process's status means, for its tooltip. The status itself is one word everywhere (the
 * header, the table, its filter): one stopped between two steps (started paused, or stepped) is
 * "stopped" too, and its tooltip says that Step or Run goes on from there.
 */
export function statusHint(record: Pick<ProcessRecord, 'status' | 'snapshot'>): string {
  if (record.status === 'stopped' && statusOf(record.snapshot) === 'running')
    return 'stopped between two steps: Step runs one node, Run goes on to the next stop';
  return STATUS_HINTS[record.status] ?? record.status;
}
