// The check ids of `listwatch conform` for one resource, as the server, etcd and extension suites
// expect them (src/conform's families in the order a run reports them).
/** Every check id of one resource, in the order a run reports them. */
export const allCheckIds: readonly string[] = [
  'discovery.resource',
  'list.paging',
  'list.remaining-item-count',
  'list.resource-version-0',
  'list.resource-version-match',
  'list.future-resource-version',
  'watch.from-list-rv',
  'watch.ordered',
  'watch.too-old-rv',
  'watch.bookmarks',
  'watch.timeout-seconds',
  'watchlist.initial-events',
  'format.table-list',
  'format.table-watch',
  'format.metadata-list',
  'format.metadata-watch',
  'list.expired-continue',
];
