// No upstream counterpart: upstream encodes every list item on every LIST (json.Marshal of the
// typed list, item by item with StreamingCollectionsEncodingToJSON). The watch cache's objects are
// never changed once stored and a LIST shares them (Cacher.getList), so each one's encoding is
// kept here, by identity, as UTF-8 bytes; and the items of a LIST are laid out once, comma by
// comma, in one body whose slices the memo then holds: a later LIST of the same items (or of a run
// of them, as a namespace's) is a slice of that body, sent without encoding or copying a byte.
import type { KubeObject } from '../engine';
import { goJsonMarshal, type GoJsonValue } from '../engine/http-face';

/**
 * A LIST item's JSON in UTF-8, exactly what goJsonMarshal writes for it: a built-in's item without its
 * TypeMeta (a typed struct's empty kind/apiVersion are omitted), a custom resource's with it
 * (an unstructured object keeps its keys). Memoised per object identity, for each of the two forms;
 * an object leaves the memo with its last reference, a body with the last item that lives in it.
 */
export class ListItemJSON {
  private readonly typed = new WeakMap<KubeObject, Buffer>();
  private readonly unstructured = new WeakMap<KubeObject, Buffer>();
  /** The bodies encodeItems laid out: only a slice of one of these is followed by its comma. */
  private readonly bodies = new WeakSet<ArrayBufferLike>();

  encode(item: KubeObject, keepTypeMeta: boolean): Buffer {
    const memo = keepTypeMeta ? this.unstructured : this.typed;
    let json = memo.get(item);
    if (json === undefined) {
      json = Buffer.from(
        goJsonMarshal((keepTypeMeta ? item : withoutTypeMeta(item)) as unknown as GoJsonValue),
      );
      memo.set(item, json);
    }
    return json;
  }

  /**
   * The items' JSON joined by commas (what goes between a list's `"items":[` and `]`). When the
   * items lie one after the other in a body laid out earlier, that body's slice; else a new body,
   * and each item's memo entry becomes its slice of it (the old bytes go with their last user).
   */
  encodeItems(items: readonly KubeObject[], keepTypeMeta: boolean): Uint8Array {
    const n = items.length;
    if (n === 0) return new Uint8Array(0);
    const encoded = new Array<Buffer>(n);
    let size = n - 1;
    let contiguous = true;
    for (let i = 0; i < n; i++) {
      const json = this.encode(items[i], keepTypeMeta);
      encoded[i] = json;
      size += json.length;
      // Next to the one before in the same body: the byte between them is that body's comma.
      if (contiguous && i > 0) {
        const prev = encoded[i - 1];
        contiguous =
          json.buffer === prev.buffer && json.byteOffset === prev.byteOffset + prev.length + 1;
      }
    }
    const first = encoded[0];
    if (contiguous && this.bodies.has(first.buffer))
      return new Uint8Array(first.buffer, first.byteOffset, size);
    // Unpooled, so that no other bytes share (and keep alive, or pass for) this body.
    const body = Buffer.allocUnsafeSlow(size);
    this.bodies.add(body.buffer);
    const memo = keepTypeMeta ? this.unstructured : this.typed;
    let at = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0) body[at++] = 0x2c; // ','
      const json = encoded[i];
      body.set(json, at);
      memo.set(items[i], body.subarray(at, at + json.length));
      at += json.length;
    }
    return body;
  }
}

/** The object as a typed struct encodes it: kind and apiVersion left out. */
export function withoutTypeMeta(obj: KubeObject): Omit<KubeObject, 'kind' | 'apiVersion'> {
  if (obj.kind === undefined && obj.apiVersion === undefined) return obj;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { kind, apiVersion, ...rest } = obj;
  return rest;
}
