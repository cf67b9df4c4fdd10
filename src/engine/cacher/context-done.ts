// Mirrors what cache_watcher.go's processInterval reads of its context.Context: `<-ctx.Done()`.
// Deliberate difference: instead of a channel per request, the context tells its listeners when it
// ends (WatchRequestContext implements the source side; an AbortSignal also serves).

/** Told when a request context ends. */
export interface ContextDoneListener {
  contextDone(): void;
}

/** A request context that tells its listeners when it ends, without an AbortSignal per watch. */
export interface WatchContextSource {
  readonly done: boolean;
  addDoneListener(listener: ContextDoneListener): void;
  removeDoneListener(listener: ContextDoneListener): void;
}

export function isWatchContextSource(
  ctx: AbortSignal | Partial<WatchContextSource>,
): ctx is WatchContextSource {
  const c = ctx as Partial<WatchContextSource>;
  return typeof c.addDoneListener === 'function' && typeof c.removeDoneListener === 'function';
}
