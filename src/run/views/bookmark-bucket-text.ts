// A watcher's next bookmark as a person reads it. Mirrors the timing of k8s.io/apiserver
// pkg/storage/cacher/cacher.go's watcherBookmarkTimeBuckets: a bucket is a whole second counted from
// the watch cache's creation (createTime), popped by the dispatcher's bookmark tick (about each
// second) once that second has begun. A live run counts time from its own start, which comes after
// the cache's creation, so a bucket's second can begin before the run did: that is said in words
// ("0.082 s before the run's start"), never as a negative second, and a bucket whose second has
// begun reads "due" (what the reader wants is when the bookmark goes out, the next tick).
import { formatVirtualTime } from './watcher-states';

/** When the bucket's second began, in run time. */
function secondBegan(bucketMs: number): string {
  return bucketMs >= 0
    ? `at ${formatVirtualTime(bucketMs)}`
    : `${formatVirtualTime(-bucketMs)} before the run's start`;
}

/** The Watchers table's Next bookmark cell: the bucket's time, or "due" once its second began. */
export function nextBookmarkCellText(bucketSecond: number | undefined, atMs: number): string {
  if (bucketSecond === undefined) return '—';
  const bucketMs = bucketSecond * 1000;
  return bucketMs > atMs ? formatVirtualTime(bucketMs) : 'due';
}

/** The watcher detail's Next bookmark. */
export function nextBookmarkFactText(bucketSecond: number | undefined, atMs: number): string {
  if (bucketSecond === undefined) return '— (in no bookmark bucket)';
  const bucketMs = bucketSecond * 1000;
  if (bucketMs > atMs)
    return `at ${formatVirtualTime(bucketMs)} (in ${formatVirtualTime(bucketMs - atMs)}), when a bookmark tick pops its bucket`;
  return `due: offered at the next bookmark tick (each second); its bucket's second began ${secondBegan(bucketMs)}${bucketMs < 0 ? " (buckets count whole seconds from the watch cache's creation)" : ''}`;
}

/** The event log's line for a watcher put into a bucket at `atMs`. */
export function bucketScheduledText(bucketMs: number, atMs: number): string {
  return bucketMs > atMs
    ? `in the bookmark bucket due at ${formatVirtualTime(bucketMs)}`
    : `in the bookmark bucket due now (its second began ${secondBegan(bucketMs)}): offered at the next bookmark tick`;
}

/** The event log's line for the bucket a bookmark tick popped. */
export function bucketPoppedText(bucketMs: number): string {
  return `the bookmark bucket whose second began ${secondBegan(bucketMs)} popped: offered a bookmark`;
}
