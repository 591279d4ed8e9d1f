// The snapshot as of a journal entry is the runtime's rule too (a fork starts there): one copy.
export { snapshotAsOf, type SnapshotAsOf } from '../../runtime/supervisor/journalSnapshots.ts';
