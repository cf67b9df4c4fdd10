// Typed inspector events the engine emits (ARCHITECTURE.md boundary 4): the only input of the UI,
// the CLI reports and the benchmarks. No upstream counterpart; upstream has klog lines and traces.
// Later areas (cacher, watchers, bookmarks) append their members to `InspectorEvent`.

/** Which resource an event is about, as upstream's schema.GroupResource. */
export interface GroupResourceRef {
  group: string;
  resource: string;
}

/** The etcd operations the etcd3 store and watcher perform (the `operation` label values). */
export type EtcdOperation =
  | 'list'
  | 'listStream'
  | 'get'
  | 'getCurrentResourceVersion'
  | 'create'
  | 'update'
  | 'delete'
  | 'watch';

/** One request to etcd: what was asked and what came back. */
export interface EtcdRequestEvent {
  type: 'etcd/request';
  /** Virtual ms (Clock.now()) when the request was sent. */
  at: number;
  groupResource: GroupResourceRef;
  operation: EtcdOperation;
  /** Range start (or the single key). */
  key: string;
  /** Range end (exclusive); absent for a single-key request. */
  rangeEnd?: string;
  /** Key limit sent to etcd; 0 = no limit. */
  limit: number;
  /** Revision asked for; 0 = the latest. */
  revision: number;
  /** Header revision of the response (0 when the request failed). */
  headerRevision: number;
  /** Key-values returned. */
  kvs: number;
  /** etcd's Count: keys in the range at the revision (ignores the limit). */
  count: number;
  /** Virtual latency: Clock.now() after the response minus `at`. */
  latencyMs: number;
  /** etcd's error text, e.g. `mvcc: required revision has been compacted`. */
  error?: string;
  /** A RangeStream probe answered Unimplemented: not counted in etcd_requests_total. */
  unimplemented?: boolean;
}

/** One chunk of a LIST served from etcd (a page of the paging loop, or one stream chunk). */
export interface ListPageEvent {
  type: 'list/page';
  at: number;
  groupResource: GroupResourceRef;
  keyPrefix: string;
  /** 1-based chunk number within the request. */
  page: number;
  /** The limit sent to etcd for this page (the doubled one); 0 = none. */
  limitAsked: number;
  /** The client's limit (pred.Limit); 0 = none. */
  clientLimit: number;
  /** Revision the page was read at (the pinned list revision). */
  revision: number;
  fetched: number;
  evaluated: number;
  /** Items of this page that matched the predicate and were kept. */
  matched: number;
  /** Items collected so far in the request. */
  itemsSoFar: number;
  /** etcd's Count for this page. */
  count: number;
  hasMore: boolean;
  /** True when the client's limit was reached in the middle of this chunk. */
  limitReached: boolean;
  streamed: boolean;
}

/** The paging loop asks etcd for another page: with a doubled limit, capped, or unchanged at the cap. */
export interface ListPageSizeEvent {
  type: 'list/page-size';
  at: number;
  groupResource: GroupResourceRef;
  keyPrefix: string;
  from: number;
  to: number;
  /** `doubled`: limit*2; `capped`: doubling hit maxLimit; `at-cap`: already at or above maxLimit, unchanged. */
  decision: 'doubled' | 'capped' | 'at-cap';
  /** Items still missing to fill the client's limit. */
  missing: number;
}

/** Why a LIST (or watch sync) was, or was not, served by one etcd RangeStream request. */
export interface ListStreamDecisionEvent {
  type: 'list/stream-decision';
  at: number;
  groupResource: GroupResourceRef;
  keyPrefix: string;
  /** `list` for GetList, `watch-sync` for a watch's initial sync. */
  origin: 'list' | 'watch-sync';
  decision: 'stream' | 'paged';
  reason:
    | 'gate-disabled'
    | 'not-recursive'
    | 'filtered-page'
    | 'marked-unsupported'
    | 'supported'
    | 'recheck-due';
  /** Virtual ms when a capability marked unsupported is probed again. */
  recheckAt?: number;
}

/** A RangeStream probe was answered Unimplemented: the request falls back to paging. */
export interface ListStreamFallbackEvent {
  type: 'list/stream-fallback';
  at: number;
  groupResource: GroupResourceRef;
  keyPrefix: string;
  origin: 'list' | 'watch-sync';
  /** The capability stays unsupported until then (rangeStreamRecheckInterval later). */
  recheckAt: number;
}

/** A LIST served from etcd finished (successfully or not); mirrors the list cost metrics. */
export interface ListDoneEvent {
  type: 'list/done';
  at: number;
  groupResource: GroupResourceRef;
  keyPrefix: string;
  recursive: boolean;
  streamed: boolean;
  /** etcd requests made for this LIST (incl. a current-revision lookup after a future-revision error). */
  etcdRequests: number;
  fetched: number;
  evaluated: number;
  returned: number;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  /** Status code and message when the LIST was rejected. */
  error?: { code: number; message: string };
  latencyMs: number;
}

/** The etcd3 watcher's lifecycle: sync done, watch started, bookmark from progress notify, error. */
export interface EtcdWatchEvent {
  type: 'etcd/watch';
  at: number;
  groupResource: GroupResourceRef;
  key: string;
  phase: 'sync-done' | 'watching' | 'progress-notify' | 'error' | 'stopped';
  /** The revision: synced at, watching from (exclusive), or the progress notification's. */
  revision: number;
  /** Objects delivered by the initial sync. */
  initialObjects?: number;
  error?: { code: number; message: string };
}

export type InspectorEvent =
  | EtcdRequestEvent
  | ListPageEvent
  | ListPageSizeEvent
  | ListStreamDecisionEvent
  | ListStreamFallbackEvent
  | ListDoneEvent
  | EtcdWatchEvent;

export type InspectorEventType = InspectorEvent['type'];

/**
 * Where engine components report what they do. `listening === false` tells emitters to skip
 * building the event at all, so an idle inspector costs one property read.
 */
export interface Inspector {
  readonly listening?: boolean;
  emit(event: InspectorEvent): void;
}

/** The inspector to emit to, or undefined when nobody listens (callers: `insp(x)?.emit({...})`). */
export function activeInspector(inspector: Inspector | undefined): Inspector | undefined {
  return inspector !== undefined && inspector.listening !== false ? inspector : undefined;
}

/** A fan-out emitter: subscribers get every event in emission order; none = no work at all. */
export class InspectorHub implements Inspector {
  private listeners: ((event: InspectorEvent) => void)[] = [];

  get listening(): boolean {
    return this.listeners.length > 0;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (event: InspectorEvent) => void): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter(l => l !== listener);
    };
  }

  emit(event: InspectorEvent): void {
    // Copy-on-write list: a listener that unsubscribes during emit does not skip another.
    for (const l of this.listeners) l(event);
  }
}

/** An inspector that keeps every event, for tests and reports. */
export class RecordingInspector implements Inspector {
  readonly events: InspectorEvent[] = [];
  readonly listening = true;

  emit(event: InspectorEvent): void {
    this.events.push(event);
  }

  /** The recorded events of one type. */
  ofType<T extends InspectorEventType>(type: T): Extract<InspectorEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<InspectorEvent, { type: T }> => e.type === type);
  }

  clear(): void {
    this.events.length = 0;
  }
}
