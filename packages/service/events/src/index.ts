/*
 * @sess/events: the interaction events after the triggers wrote them — the chain sealer and the
 * clock's events (one worker per replica), a session's timeline and a workspace's export.
 */
export { sweepClockEvents } from './clock-sweep.ts';
export { describeEvent } from './describe-event.ts';
export { EVENT_COLUMNS, type EventRow, toEventView } from './event-view.ts';
export { type EventWorker, type EventWorkerOptions, startEventWorker } from './event-worker.ts';
export { type ExportRange, exportEvents } from './export-events.ts';
export {
  countUnsealedEvents,
  EVENTS_SEALED_CHANNEL,
  EVENTS_WRITTEN_CHANNEL,
  SEAL_BATCH,
  sealWaitingEvents,
} from './seal-chain.ts';
export { statusLine } from './status-line.ts';
export { parseEventCursor, readTimeline, TIMELINE_PAGE, TIMELINE_PAGE_MAX } from './timeline.ts';
