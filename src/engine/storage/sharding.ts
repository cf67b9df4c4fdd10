// Mirrors k8s.io/apimachinery pkg/sharding (types.go, hash.go, selector.go, accessor.go;
// release-1.36): the shard selector of ShardedListAndWatch (alpha). The parser (the shardSelector
// query parameter) is not modelled: no face sends one.

/** sharding.ShardRangeRequirement: objects whose hashed field falls in [start, end). */
export interface ShardRangeRequirement {
  /** The field path, e.g. "object.metadata.uid". */
  readonly key: string;
  /** Inclusive lower bound, a 0x-prefixed lowercase hex string ("0x0000000000000000" minimum). */
  readonly start: string;
  /** Exclusive upper bound, a 0x-prefixed lowercase hex string ("0x10000000000000000" maximum). */
  readonly end: string;
}

/** sharding.Selector. `matches` throws where upstream's returns an error. */
export interface Selector {
  matches(obj: unknown): boolean;
  /** True when the selector matches everything (no filtering). */
  empty(): boolean;
  /** The wire form. */
  string(): string;
  requirements(): ShardRangeRequirement[];
}

const fnvOffset64 = 0xcbf29ce484222325n;
const fnvPrime64 = 0x100000001b3n;
const mask64 = 0xffffffffffffffffn;

/** sharding.HashField: FNV-1a 64 of the value's UTF-8 bytes, as 16 lowercase hex digits. */
export function hashField(value: string): string {
  let h = fnvOffset64;
  for (const b of new TextEncoder().encode(value)) {
    h = ((h ^ BigInt(b)) * fnvPrime64) & mask64;
  }
  return h.toString(16).padStart(16, '0');
}

/** sharding.HexLess: a shorter hex string is smaller; equal lengths compare as strings. */
export function hexLess(a: string, b: string): boolean {
  if (a.length !== b.length) return a.length < b.length;
  return a < b;
}

/** The part of meta.Accessor the resolver reads (a KubeObject's metadata, or a CachingObject). */
interface ShardMetaAccessor {
  getUID(): string;
  getNamespace(): string;
}

function accessor(obj: unknown): ShardMetaAccessor {
  if (obj !== null && typeof obj === 'object') {
    const o = obj as Partial<ShardMetaAccessor> & { metadata?: unknown };
    if (typeof o.getUID === 'function' && typeof o.getNamespace === 'function') {
      return o as ShardMetaAccessor;
    }
    const m = o.metadata;
    if (m !== null && typeof m === 'object') {
      const meta = m as { uid?: unknown; namespace?: unknown };
      return {
        getUID: () => (typeof meta.uid === 'string' ? meta.uid : ''),
        getNamespace: () => (typeof meta.namespace === 'string' ? meta.namespace : ''),
      };
    }
  }
  // meta.Accessor's errNotObject.
  throw new Error('object does not implement the Object interfaces');
}

/** sharding.ResolveFieldValue: the metadata field a shard key names. */
export function resolveFieldValue(obj: unknown, fieldPath: string): string {
  let a: ShardMetaAccessor;
  try {
    a = accessor(obj);
  } catch (e) {
    throw new Error(`failed to access object metadata: ${(e as Error).message}`);
  }
  switch (fieldPath) {
    case 'object.metadata.uid':
      return a.getUID();
    case 'object.metadata.namespace':
      return a.getNamespace();
    default:
      throw new Error(`unsupported field path: ${goQuote(fieldPath)}`);
  }
}

// Go's %q for the field paths the parser admits (printable ASCII); others are escaped as JSON.
function goQuote(s: string): string {
  return JSON.stringify(s);
}

const everythingSelector: Selector = Object.freeze({
  matches: () => true,
  empty: () => true,
  string: () => '',
  requirements: () => [],
});

/** sharding.Everything: the selector that matches everything. */
export function everything(): Selector {
  return everythingSelector;
}

class ShardSelector implements Selector {
  constructor(private readonly reqs: readonly ShardRangeRequirement[]) {}

  matches(obj: unknown): boolean {
    if (this.reqs.length === 0) return true;
    // One key for all requirements, so the field is resolved and hashed once; the parser
    // enforces it, this guards selectors built otherwise.
    const key = this.reqs[0].key;
    for (const req of this.reqs.slice(1)) {
      if (req.key !== key) {
        throw new Error(`inconsistent shard keys: ${goQuote(key)} vs ${goQuote(req.key)}`);
      }
    }
    const hash = '0x' + hashField(resolveFieldValue(obj, key));
    return this.reqs.some((req) => !hexLess(hash, req.start) && hexLess(hash, req.end));
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  string(): string {
    return this.reqs.map((r) => `shardRange(${r.key}, '${r.start}', '${r.end}')`).join(' || ');
  }

  requirements(): ShardRangeRequirement[] {
    return [...this.reqs];
  }
}

/** sharding.NewSelector: Everything() for no requirements. */
export function newSelector(...reqs: ShardRangeRequirement[]): Selector {
  if (reqs.length === 0) return everything();
  return new ShardSelector([...reqs]);
}
