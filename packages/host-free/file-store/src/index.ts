export { countHandleRecords, type HandleRecordCounts } from './count-handle-records.ts';
export {
  createFileHandleStore,
  FINISHED_RETENTION_DAYS,
  type FileHandleStore,
  type FileHandleStoreOptions,
} from './create-file-handle-store.ts';
export { decodeRecordFile, encodeRecordFile, RECORD_FORMAT_VERSION } from './record-file.ts';
export { classifyFsError, type RecordProblem } from './store-error.ts';
