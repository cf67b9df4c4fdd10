// No upstream counterpart: what a log proves of the server's etcd. The cacher refuses a WatchList
// watch when etcd lacks RequestWatchProgress (cacher.go Watch, after the storage feature check of
// storage/feature/feature_support_checker.go) and its client logs that refusal: the replay runs the
// engine without the feature, and the import explains its request shapes under the same state.
import type { ImportedRequest } from './imported-request';

/** The cacher's refusal, as the client logs the error its watch list ended with. */
export const requestWatchProgressDisabled =
  /the required storage feature RequestWatchProgress is disabled/;

/** A request whose client logged that refusal (its end or its Status carries it). */
export function provesRequestWatchProgressDisabled(r: ImportedRequest): boolean {
  return (
    requestWatchProgressDisabled.test(r.watchEnd?.message ?? '') ||
    requestWatchProgressDisabled.test(r.status?.message ?? '')
  );
}

/** Where the log proves it: the logged message and its file:line (the request's id without one). */
export function requestWatchProgressProof(r: ImportedRequest): { message: string; at: string } {
  const src = r.watchEnd?.source ?? r.sources[0];
  return {
    message: r.watchEnd?.message ?? r.status?.message ?? '',
    at: src ? `${src.file}:${src.line}` : r.id,
  };
}
