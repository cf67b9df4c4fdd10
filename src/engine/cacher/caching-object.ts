// Mirrors k8s.io/apiserver pkg/storage/cacher/caching_object.go (release-1.36), with
// setCachingObjects and baseObjectThreadUnsafe (cacher.go) and getMutableObject and
// updateResourceVersion (cache_watcher.go). Deliberate differences: JS is single-threaded, so the
// locks and sync.Once are plain flags; an encoder returns bytes (or throws) instead of writing to
// an io.Writer, and the cached bytes are shared read-only (upstream splices them); the rate-limited
// invalidation warning names the setter instead of printing a Go stack; objects are plain JSON.
import { setOwn } from '../encoding/own-key';
import { goJsonMarshal, type GoJsonValue } from '../encoding/go-json';
import { setMetaFieldInOrder, type KubeObject } from '../storage/objects';
import { APIObjectVersioner } from '../storage/versioner';
import type { Clock } from '../clock';
import type { WatchCacheEvent } from './watch-cache-event';

/** runtime.Identifier: names an encoder and everything that changes its output (content type, group-version, options). */
export type Identifier = string;

/** Encodes a (deep-copied) object; throws on failure. For one identifier it must always produce the same format. */
export type EncodeFunc = (object: KubeObject) => Uint8Array;

/** meta/v1 OwnerReference (JSON form). */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** meta/v1 ManagedFieldsEntry (JSON form; its content does not matter here). */
export type ManagedFieldsEntry = Readonly<Record<string, unknown>>;

/** EventSink hooks; unset hooks cost nothing. */
/** What a CachingObject reports of one cacheEncode call: `hit` = served from the cache without calling the encoder. */
export type EncodeReport = { identifier: Identifier; hit: boolean; bytes: number; error?: string };

export interface CachingObjectHooks {
  /** A cacheEncode call: `hit` = served from the cache without calling the encoder. */
  encoded?(e: EncodeReport): void;
  /** The first real change made the lazy deep copy. */
  deepCopied?(e: { setter: string }): void;
  /** A change dropped cached serializations (upstream logs a warning: it is not expected to happen). */
  invalidated?(e: { setter: string; identifiers: Identifier[] }): void;
}

/**
 * shouldLogCacheInvalidation's process-wide timestamp: the "Unexpected cache invalidation" warning
 * is written at most once per second. Share one instance per engine (upstream: a package global).
 */
export class CacheInvalidationWarnings {
  private timestamp = Number.NEGATIVE_INFINITY; // Go's zero time: the first warning always goes out
  private readonly clock: Pick<Clock, 'now'>;
  private readonly sink: (message: string) => void;
  /** Warnings suppressed by the rate limit. */
  suppressed = 0;

  constructor(clock: Pick<Clock, 'now'>, sink: (message: string) => void) {
    this.clock = clock;
    this.sink = sink;
  }

  /** True (and the window restarts) when more than a second passed since the last logged warning. */
  shouldLogCacheInvalidation(now: number): boolean {
    if (this.timestamp + 1000 < now) {
      this.timestamp = now;
      return true;
    }
    return false;
  }

  /** Writes the warning for `object` if the rate limit allows. */
  warn(object: KubeObject, setter: string): void {
    if (!this.shouldLogCacheInvalidation(this.clock.now())) {
      this.suppressed++;
      return;
    }
    this.sink(`Unexpected cache invalidation for ${describeObject(object)}\n(by ${setter})`);
  }
}

export interface CachingObjectOptions {
  readonly eventSink?: CachingObjectHooks;
  readonly warnings?: CacheInvalidationWarnings;
}

/** Encodes and cache hits of one identifier over the object's life (across invalidations). */
export interface SerializationCounts {
  readonly encodes: number;
  readonly hits: number;
  readonly errors: number;
}

interface SerializationResult {
  done: boolean;
  raw: Uint8Array | undefined;
  failed: boolean;
  err: unknown;
  /** The identifier's lifetime counts (kept across invalidations): one lookup per call, not two. */
  counts: { encodes: number; hits: number; errors: number };
}

/** An encoder as cacheEncodeFor and encodedLength take it. */
type ObjectEncoderLike = {
  readonly identifier: Identifier;
  encode(object: KubeObject): Uint8Array;
};

/**
 * An object that encodes itself at most once per encoder identifier, so an event fanned out to a
 * thousand watchers is serialized once per content type, not once per watcher. It is shared by all
 * watchers without copying: the deep copy is deferred to the first setter that really changes
 * something (in practice: the resourceVersion of DELETE events), and such a change drops the
 * cached serializations.
 */
export class CachingObject {
  private object: KubeObject;
  private copied: boolean;
  private serializations = new Map<Identifier, SerializationResult>();
  // The two identifiers asked last, before the map: a fan-out asks for one or two (JSON and
  // protobuf) thousands of times. Cleared with the map.
  private lastId0: Identifier | undefined = undefined;
  private lastResult0: SerializationResult | undefined = undefined;
  private lastId1: Identifier | undefined = undefined;
  private lastResult1: SerializationResult | undefined = undefined;
  private counts: Map<Identifier, { encodes: number; hits: number; errors: number }> | undefined;
  private readonly options: CachingObjectOptions;
  // encodedLength's hits on its last two encoders, not yet in their counts (foldHits).
  private lengthEncoder0: ObjectEncoderLike | undefined = undefined;
  private length0 = 0;
  private lengthHits0 = 0;
  private lengthEncoder1: ObjectEncoderLike | undefined = undefined;
  private length1 = 0;
  private lengthHits1 = 0;

  /** Use newCachingObject (it validates the input). No copy is made here. */
  constructor(object: KubeObject, deepCopied: boolean, options: CachingObjectOptions = {}) {
    this.object = object;
    this.copied = deepCopied;
    this.options = options;
  }

  /** Whether the wrapped object has been deep-copied (lazily, on the first real change). */
  get deepCopied(): boolean {
    return this.copied;
  }

  /**
   * runtime.CacheableObject.CacheEncode: the bytes of this object for `id`, computing them with
   * `encode(this.getObject())` on the first call only. A failure is cached too and rethrown on
   * every later call. The returned bytes are shared: treat them as read-only.
   */
  cacheEncode(id: Identifier, encode: EncodeFunc): Uint8Array {
    return this.cacheEncodeWith(id, encode, undefined);
  }

  /** cacheEncode with an encoder object (`encoder.encode(object)`): no closure per call. */
  cacheEncodeFor(encoder: {
    readonly identifier: Identifier;
    encode(object: KubeObject): Uint8Array;
  }): Uint8Array {
    // The fan-out's common case first: a hit on one of the last two identifiers, nobody to tell.
    const id = encoder.identifier;
    const result =
      id === this.lastId0 ? this.lastResult0 : id === this.lastId1 ? this.lastResult1 : undefined;
    if (result !== undefined && result.raw !== undefined && this.quiet) {
      result.counts.hits++;
      return result.raw;
    }
    return this.cacheEncodeWith(id, undefined, encoder);
  }

  /**
   * cacheEncodeFor(encoder).length, for a fan-out that needs only the size. While nobody is told
   * of each hit (quiet), the hits on the last two encoders are counted here in bulk and added to
   * their counts before anyone reads them (serializationCounts) or the cache is dropped.
   */
  encodedLength(encoder: ObjectEncoderLike): number {
    if (encoder === this.lengthEncoder0) {
      this.lengthHits0++;
      return this.length0;
    }
    if (encoder === this.lengthEncoder1) {
      this.lengthHits1++;
      return this.length1;
    }
    const length = this.cacheEncodeFor(encoder).length;
    if (this.quiet) {
      if (this.lengthEncoder0 === undefined) {
        this.lengthEncoder0 = encoder;
        this.length0 = length;
      } else if (this.lengthEncoder1 === undefined) {
        this.lengthEncoder1 = encoder;
        this.length1 = length;
      }
    }
    return length;
  }

  /** Adds encodedLength's bulk hits to their counts. */
  private foldHits(): void {
    if (this.lengthHits0 > 0)
      this.addHits((this.lengthEncoder0 as ObjectEncoderLike).identifier, this.lengthHits0);
    if (this.lengthHits1 > 0)
      this.addHits((this.lengthEncoder1 as ObjectEncoderLike).identifier, this.lengthHits1);
    this.lengthHits0 = this.lengthHits1 = 0;
  }

  /** Nobody is told of each encode and hit (no event sink): hits may be counted in bulk (addHits). */
  get quiet(): boolean {
    return this.options.eventSink === undefined;
  }

  /** Adds hits counted in bulk to an identifier with a cached serialization. */
  addHits(id: Identifier, n: number): void {
    const result = this.serializations.get(id);
    if (result !== undefined) result.counts.hits += n;
  }

  private cacheEncodeWith(
    id: Identifier,
    encode: EncodeFunc | undefined,
    encoder: { encode(object: KubeObject): Uint8Array } | undefined,
  ): Uint8Array {
    let result: SerializationResult | undefined;
    if (id === this.lastId0) result = this.lastResult0;
    else if (id === this.lastId1) result = this.lastResult1;
    else {
      result = this.serializations.get(id);
      if (!result) {
        result = {
          done: false,
          raw: undefined,
          failed: false,
          err: undefined,
          counts: this.countsOf(id),
        };
        this.serializations.set(id, result);
      }
      this.lastId1 = this.lastId0;
      this.lastResult1 = this.lastResult0;
      this.lastId0 = id;
      this.lastResult0 = result;
    }
    result = result as SerializationResult;
    const hit = result.done;
    if (!result.done) {
      result.done = true;
      try {
        // Encode a copy: some encoders make subtle modifications to the object they encode.
        result.raw =
          encoder !== undefined
            ? encoder.encode(this.getObject())
            : (encode as EncodeFunc)(this.getObject());
      } catch (e) {
        result.failed = true;
        result.err = e;
      }
    }
    const c = result.counts;
    if (hit) c.hits++;
    else {
      c.encodes++;
      if (result.failed) c.errors++;
    }
    const insp = this.options.eventSink;
    if (insp?.encoded) {
      insp.encoded({
        identifier: id,
        hit,
        bytes: result.raw?.length ?? 0,
        ...(result.failed ? { error: errorMessage(result.err) } : {}),
      });
    }
    if (result.failed) throw result.err;
    return result.raw as Uint8Array;
  }

  /** Per-identifier encodes/hits/errors since creation. */
  serializationCounts(): ReadonlyMap<Identifier, SerializationCounts> {
    this.foldHits();
    return this.counts ?? new Map();
  }

  /** Identifiers with a cached serialization right now. */
  cachedIdentifiers(): Identifier[] {
    return [...this.serializations.keys()];
  }

  /** A deep copy of the wrapped object: the caller owns it. */
  getObject(): KubeObject {
    return deepCopyJSON(this.object);
  }

  /** TypeMeta of the wrapped object. */
  getObjectKind(): { apiVersion: string; kind: string } {
    return { apiVersion: this.object.apiVersion ?? '', kind: this.object.kind ?? '' };
  }

  /** A new CachingObject over a deep copy, with an empty serialization cache (not expected to be used). */
  deepCopyObject(): CachingObject {
    return new CachingObject(deepCopyJSON(this.object), true, this.options);
  }

  /** baseObjectThreadUnsafe: the wrapped object itself, no copy. Read only (indexer trigger functions). */
  peekObject(): KubeObject {
    return this.object;
  }

  // metav1.Object: getters read the wrapped object; setters go through conditionalSet.

  getNamespace(): string {
    return str(this.meta().namespace);
  }
  setNamespace(namespace: string): void {
    this.conditionalSet(
      'setNamespace',
      () => this.getNamespace() === namespace,
      () => this.setScalar('namespace', namespace),
    );
  }
  getName(): string {
    return str(this.meta().name);
  }
  setName(name: string): void {
    this.conditionalSet(
      'setName',
      () => this.getName() === name,
      () => this.setScalar('name', name),
    );
  }
  getGenerateName(): string {
    return str(this.meta().generateName);
  }
  setGenerateName(name: string): void {
    this.conditionalSet(
      'setGenerateName',
      () => this.getGenerateName() === name,
      () => this.setScalar('generateName', name),
    );
  }
  getUID(): string {
    return str(this.meta().uid);
  }
  setUID(uid: string): void {
    this.conditionalSet(
      'setUID',
      () => this.getUID() === uid,
      () => this.setScalar('uid', uid),
    );
  }
  getResourceVersion(): string {
    return str(this.meta().resourceVersion);
  }
  setResourceVersion(version: string): void {
    this.conditionalSet(
      'setResourceVersion',
      () => this.getResourceVersion() === version,
      () => this.setScalar('resourceVersion', version),
    );
  }
  getGeneration(): number {
    const g = this.meta().generation;
    return typeof g === 'number' ? g : 0;
  }
  setGeneration(generation: number): void {
    this.conditionalSet(
      'setGeneration',
      () => this.getGeneration() === generation,
      () => this.setScalar('generation', generation),
    );
  }
  getSelfLink(): string {
    return str(this.meta().selfLink);
  }
  setSelfLink(selfLink: string): void {
    this.conditionalSet(
      'setSelfLink',
      () => this.getSelfLink() === selfLink,
      () => this.setScalar('selfLink', selfLink),
    );
  }
  /** RFC 3339; '' for the zero time. */
  getCreationTimestamp(): string {
    return str(this.meta().creationTimestamp);
  }
  /** metav1.Time is compared by value: an equal timestamp is a no-op. */
  setCreationTimestamp(timestamp: string): void {
    this.conditionalSet(
      'setCreationTimestamp',
      () => this.getCreationTimestamp() === timestamp,
      () => this.setScalar('creationTimestamp', timestamp),
    );
  }
  getDeletionTimestamp(): string | undefined {
    return this.meta().deletionTimestamp as string | undefined;
  }
  /**
   * *metav1.Time is compared by pointer upstream, so only nil → nil is a no-op; a JS string has no
   * identity, so any non-nil value counts as a fresh pointer (as every real caller passes).
   */
  setDeletionTimestamp(timestamp: string | undefined): void {
    this.conditionalSet(
      'setDeletionTimestamp',
      () => this.getDeletionTimestamp() === undefined && timestamp === undefined,
      () => this.setScalar('deletionTimestamp', timestamp),
    );
  }
  getDeletionGracePeriodSeconds(): number | undefined {
    return this.meta().deletionGracePeriodSeconds as number | undefined;
  }
  /** *int64: pointer comparison, see setDeletionTimestamp. */
  setDeletionGracePeriodSeconds(gracePeriodSeconds: number | undefined): void {
    this.conditionalSet(
      'setDeletionGracePeriodSeconds',
      () => this.getDeletionGracePeriodSeconds() === undefined && gracePeriodSeconds === undefined,
      // A pointer to 0 is still set (no omitempty on a nil-able pointer's value).
      () => this.setField('deletionGracePeriodSeconds', gracePeriodSeconds),
    );
  }
  getLabels(): Readonly<Record<string, string>> | undefined {
    return this.meta().labels as Record<string, string> | undefined;
  }
  /** Maps and slices compare like reflect.DeepEqual: nil and empty differ. */
  setLabels(labels: Record<string, string> | undefined): void {
    this.conditionalSet(
      'setLabels',
      () => goDeepEqual(this.getLabels(), labels),
      () => this.setField('labels', labels),
    );
  }
  getAnnotations(): Readonly<Record<string, string>> | undefined {
    return this.meta().annotations as Record<string, string> | undefined;
  }
  setAnnotations(annotations: Record<string, string> | undefined): void {
    this.conditionalSet(
      'setAnnotations',
      () => goDeepEqual(this.getAnnotations(), annotations),
      () => this.setField('annotations', annotations),
    );
  }
  getFinalizers(): readonly string[] | undefined {
    return this.meta().finalizers as string[] | undefined;
  }
  setFinalizers(finalizers: string[] | undefined): void {
    this.conditionalSet(
      'setFinalizers',
      () => goDeepEqual(this.getFinalizers(), finalizers),
      () => this.setField('finalizers', finalizers),
    );
  }
  getOwnerReferences(): readonly OwnerReference[] | undefined {
    return this.meta().ownerReferences as OwnerReference[] | undefined;
  }
  setOwnerReferences(references: OwnerReference[] | undefined): void {
    this.conditionalSet(
      'setOwnerReferences',
      () => goDeepEqual(this.getOwnerReferences(), references),
      () => this.setField('ownerReferences', references),
    );
  }
  getManagedFields(): readonly ManagedFieldsEntry[] | undefined {
    return this.meta().managedFields as ManagedFieldsEntry[] | undefined;
  }
  setManagedFields(managedFields: ManagedFieldsEntry[] | undefined): void {
    this.conditionalSet(
      'setManagedFields',
      () => goDeepEqual(this.getManagedFields(), managedFields),
      () => this.setField('managedFields', managedFields),
    );
  }

  /** No-op changes cost nothing; a real one deep-copies once, drops the cached serializations, then sets. */
  private conditionalSet(setter: string, isNoop: () => boolean, set: () => void): void {
    if (isNoop()) return;
    if (!this.copied) {
      this.object = deepCopyJSON(this.object);
      this.copied = true;
      this.options.eventSink?.deepCopied?.({ setter });
    }
    this.invalidateCacheLocked(setter);
    set();
  }

  private invalidateCacheLocked(setter: string): void {
    if (this.serializations.size === 0) return;
    this.foldHits(); // the hits were on what is dropped now
    this.lengthEncoder0 = this.lengthEncoder1 = undefined;
    // Not expected to happen, so it is reported (rate-limited), to find whoever mutates shared objects.
    this.options.warnings?.warn(this.object, setter);
    this.options.eventSink?.invalidated?.({ setter, identifiers: [...this.serializations.keys()] });
    this.serializations = new Map();
    this.lastId0 = this.lastId1 = undefined;
    this.lastResult0 = this.lastResult1 = undefined;
  }

  private meta(): Record<string, unknown> {
    const m = (this.object as { metadata?: unknown }).metadata;
    return m !== null && typeof m === 'object' ? (m as Record<string, unknown>) : {};
  }

  /** Scalars with omitempty: the zero value removes the field. */
  private setScalar(field: string, value: string | number | undefined): void {
    this.setField(field, value === '' || value === 0 ? undefined : value);
  }

  /** Sets a metadata field in ObjectMeta's field order (undefined removes it), so JSON output stays Go-ordered. */
  private setField(field: string, value: unknown): void {
    const holder = this.object as { metadata?: unknown };
    if (holder.metadata === null || typeof holder.metadata !== 'object') holder.metadata = {};
    setMetaFieldInOrder(holder.metadata as Record<string, unknown>, field, value);
  }

  private countsOf(id: Identifier): { encodes: number; hits: number; errors: number } {
    if (!this.counts) this.counts = new Map();
    let c = this.counts.get(id);
    if (!c) {
      c = { encodes: 0, hits: 0, errors: 0 };
      this.counts.set(id, c);
    }
    return c;
  }
}

/**
 * Wraps `object` (no copy). Throws `can't cast object to metav1.Object: …` when it is not an
 * object with (optional) object metadata.
 */
export function newCachingObject(
  object: unknown,
  options: CachingObjectOptions = {},
): CachingObject {
  if (
    object !== null &&
    typeof object === 'object' &&
    !Array.isArray(object) &&
    !(object instanceof CachingObject)
  ) {
    const meta = (object as { metadata?: unknown }).metadata;
    if (meta === undefined || (meta !== null && typeof meta === 'object' && !Array.isArray(meta))) {
      return new CachingObject(object as KubeObject, false, options);
    }
  }
  throw new Error(`can't cast object to metav1.Object: ${describeObject(object)}`);
}

/** cache_watcher.go getMutableObject: a CachingObject protects itself (lazy copy); anything else is deep-copied. */
export function getMutableObject<T>(object: T | CachingObject): T | CachingObject {
  return object instanceof CachingObject ? object : deepCopyJSON(object);
}

/** cacher.go baseObjectThreadUnsafe: the object under a CachingObject, without copying. */
export function baseObjectThreadUnsafe<T>(object: T | CachingObject): T | KubeObject {
  return object instanceof CachingObject ? object.peekObject() : object;
}

const apiObjectVersioner = new APIObjectVersioner();

/**
 * cache_watcher.go updateResourceVersion via APIObjectVersioner.UpdateObject: metadata.resourceVersion
 * = rv ("" for 0). On a CachingObject this goes through its setter (lazy copy, invalidation).
 */
export function updateResourceVersion(
  object: KubeObject | CachingObject,
  resourceVersion: number,
): void {
  if (object instanceof CachingObject) {
    object.setResourceVersion(resourceVersion !== 0 ? String(resourceVersion) : '');
    return;
  }
  apiObjectVersioner.updateObject(object, BigInt(resourceVersion));
}

export interface SetCachingObjectsOptions extends CachingObjectOptions {
  /** Where upstream's klog.Errorf goes when an object cannot be wrapped. */
  readonly onError?: (message: string) => void;
}

/**
 * cacher.go setCachingObjects, applied to the shallow copy of an event made for one dispatch:
 * - ADDED / MODIFIED: wrap `object` (PrevObject stays as is: it only serves the rare selector
 *   transition, not worth a wrapper per event);
 * - DELETED: wrap `prevObject` (the object DELETE events carry) with its resourceVersion set to the
 *   event's; `object` stays as is;
 * - BOOKMARK: unchanged.
 */
export function setCachingObjects(
  event: WatchCacheEvent<KubeObject | CachingObject>,
  options: SetCachingObjectsOptions = {},
): void {
  switch (event.type) {
    case 'ADDED':
    case 'MODIFIED':
      if (event.object instanceof CachingObject) return;
      try {
        event.object = newCachingObject(event.object, options);
      } catch {
        options.onError?.(`couldn't create cachingObject from: ${describeObject(event.object)}`);
      }
      return;
    case 'DELETED':
      if (event.prevObject instanceof CachingObject) {
        updateResourceVersion(event.prevObject, event.resourceVersion);
        return;
      }
      try {
        const wrapped = newCachingObject(event.prevObject, options);
        // DELETE watch events carry the delete's resourceVersion, not the last modification's.
        updateResourceVersion(wrapped, event.resourceVersion);
        event.prevObject = wrapped;
      } catch {
        options.onError?.(`couldn't create cachingObject from: ${describeObject(event.object)}`);
      }
      return;
    default:
      return;
  }
}

/** A deep copy of plain JSON data (objects, arrays, primitives; Uint8Array copied). */
export function deepCopyJSON<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(deepCopyJSON) as unknown as T;
  if (value instanceof Uint8Array) return value.slice() as unknown as T;
  // Object.keys and indexing, as Object.entries would see it, without an array per property.
  const src = value as Record<string, unknown>;
  const keys = Object.keys(src);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    setOwn(out, k, deepCopyJSON(src[k]));
  }
  return out as T;
}

/**
 * reflect.DeepEqual for JSON data: nil (undefined/null) differs from an empty map or slice, map key
 * order does not matter, slice order does.
 */
export function goDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => goDeepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object).filter(
    (k) => (a as Record<string, unknown>)[k] !== undefined,
  );
  const kb = Object.keys(b as object).filter(
    (k) => (b as Record<string, unknown>)[k] !== undefined,
  );
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      goDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A short %#v-like rendering for messages. */
function describeObject(object: unknown): string {
  if (object === undefined) return '<nil>';
  try {
    const text = goJsonMarshal(object as GoJsonValue);
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    return String(object);
  }
}
