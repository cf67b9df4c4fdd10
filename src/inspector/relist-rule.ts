// When a LIST counts as a relist, one rule for the run model (client-records.ts) and the views
// that explain it. No upstream counterpart: upstream has no notion of a relist on the server side.

/**
 * A LIST this soon after a watch of the same client ended early or with a 410 is a relist: the
 * reflector (client-go tools/cache/reflector.go) answers a failed watch by listing again after its
 * backoff, which starts at 800 ms and doubles up to 30 s; 5 s covers the first retries and leaves
 * out a LIST the client would have sent anyway much later.
 */
export const relistWindowMs = 5000;

/** The rule in words, for the views. */
export const relistRule = `a relist is a LIST from scratch (no continue) sent within ${relistWindowMs / 1000} s after a watch of the same client ended with a 410 or early (terminated, closed by the server, refused), with no WATCH between`;
