// No upstream counterpart: upstream encodes every list item on every LIST (json.Marshal of the
// typed list, item by item with StreamingCollectionsEncodingToJSON). The watch cache's objects are
// never changed once stored and a LIST shares them (Cacher.getList), so each one's encoding is
// kept here, by identity, as UTF-8 bytes; and the items of a LIST are laid out once, comma by
// comma, in one body whose slices the memo then holds: a later LIST of the same items (or of a run
// of them, as a namespace's) is a slice of that body, sent without encoding or copying a byte.
import type { KubeObject } from '../engine';
import { goJsonMarshal, type GoJsonValue } from '../engine/http-face';

/**
 * Where an item's JSON lives: bytes [start, end) of `body`, its own buffer or a LIST body laid out
 * by encodeItems. Moved (mutated in place) when a new body is laid out: only the memo holds it.
 */
interface ItemJSON {
  body: Buffer;
  start: number;
  end: number;
}

/**
 * A LIST item's JSON in UTF-8, exactly what goJsonMarshal writes for it: a built-in's item without its
 * TypeMeta (a typed struct's empty kind/apiVersion are omitted), a custom resource's with it
 * (an unstructured object keeps its keys). Memoised per object identity, for each of the two forms;
 * an object leaves the memo with its last reference, a body with the last item that lives in it.
 */
export class ListItemJSON {
  private readonly typed = new WeakMap<KubeObject, ItemJSON>();
  private readonly unstructured = new WeakMap<KubeObject, ItemJSON>();
  /**
   * Each form's last list and its bytes: the same objects in the same order (a client relisting
   * an unchanged collection) are answered by comparing references, without a memo lookup per
   * item. Holds the last list's objects until the next LIST of that form.
   */
  private lastTyped: { items: readonly KubeObject[]; json: Uint8Array } | undefined;
  private lastUnstructured: { items: readonly KubeObject[]; json: Uint8Array } | undefined;

  encode(item: KubeObject, keepTypeMeta: boolean): Buffer {
    const at = this.locate(item, keepTypeMeta);
    return at.body.subarray(at.start, at.end);
  }

  /** The item's memo entry, encoding it on the first call. */
  private locate(item: KubeObject, keepTypeMeta: boolean): ItemJSON {
    const memo = keepTypeMeta ? this.unstructured : this.typed;
    let at = memo.get(item);
    if (at === undefined) {
      const body = Buffer.from(
        goJsonMarshal((keepTypeMeta ? item : withoutTypeMeta(item)) as unknown as GoJsonValue),
      );
      at = { body, start: 0, end: body.length };
      memo.set(item, at);
    }
    return at;
  }

  /**
   * The items' JSON joined by commas (what goes between a list's `"items":[` and `]`). When the
   * items lie one after the other in a body laid out earlier, that body's slice; else a new body,
   * and each item's memo entry moves to its slice of it (the old bytes go with their last user).
   * Only a laid-out body holds two items, so two entries in one body, one byte apart, have that
   * body's comma between them.
   */
  encodeItems(items: readonly KubeObject[], keepTypeMeta: boolean): Uint8Array {
    const n = items.length;
    if (n === 0) return new Uint8Array(0);
    const last = keepTypeMeta ? this.lastUnstructured : this.lastTyped;
    if (last !== undefined && sameItems(last.items, items)) return last.json;
    const json = this.layOut(items, keepTypeMeta);
    const remembered = { items: items.slice(), json };
    if (keepTypeMeta) this.lastUnstructured = remembered;
    else this.lastTyped = remembered;
    return json;
  }

  private layOut(items: readonly KubeObject[], keepTypeMeta: boolean): Uint8Array {
    const n = items.length;
    const located = new Array<ItemJSON>(n);
    let size = n - 1;
    let contiguous = true;
    let prev = this.locate(items[0], keepTypeMeta);
    located[0] = prev;
    size += prev.end - prev.start;
    for (let i = 1; i < n; i++) {
      const at = this.locate(items[i], keepTypeMeta);
      located[i] = at;
      size += at.end - at.start;
      if (contiguous) contiguous = at.body === prev.body && at.start === prev.end + 1;
      prev = at;
    }
    const first = located[0];
    if (contiguous) return first.body.subarray(first.start, first.start + size);
    // Unpooled, so that no other bytes share (and keep alive) this body.
    const body = Buffer.allocUnsafeSlow(size);
    let offset = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0) body[offset++] = 0x2c; // ','
      const at = located[i];
      const length = at.body.copy(body, offset, at.start, at.end);
      at.body = body;
      at.start = offset;
      at.end = offset += length;
    }
    return body;
  }
}

/** The same objects in the same order. */
function sameItems(a: readonly KubeObject[], b: readonly KubeObject[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The object as a typed struct encodes it: kind and apiVersion left out. */
export function withoutTypeMeta(obj: KubeObject): Omit<KubeObject, 'kind' | 'apiVersion'> {
  if (obj.kind === undefined && obj.apiVersion === undefined) return obj;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { kind, apiVersion, ...rest } = obj;
  return rest;
}
