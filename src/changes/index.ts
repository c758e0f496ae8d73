export {
  changedFields,
  comparable,
  type FieldChange,
  gitDiff,
  hasChanged,
} from './compare.ts';
export { type Snapshot, type SnapshotPlace, SnapshotStore } from './snapshots.ts';
