import { PerformanceObserver } from 'node:perf_hooks';

/**
 * Records this process's garbage collections from now on, each as [start, duration] in ms, the
 * start in epoch ms so two processes' records share one clock.
 */
export function recordCollections(): Array<[number, number]> {
  const collections: Array<[number, number]> = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.push([performance.timeOrigin + entry.startTime, entry.duration]);
  }).observe({ entryTypes: ['gc'] });
  return collections;
}

/** Whether any of `collections` ([start, duration], epoch ms) overlapped `span` ([from, to], epoch ms). */
export function overlapsCollection(collections: Array<[number, number]>, [from, to]: [number, number]): boolean {
  return collections.some(([start, duration]) => start < to && start + duration > from);
}
