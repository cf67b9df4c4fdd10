// No upstream counterpart: upstream encodes every list item on every LIST (json.Marshal of the
// typed list, item by item with StreamingCollectionsEncodingToJSON). The watch cache's objects are
// never changed once stored and a LIST shares them (Cacher.getList), so each one's encoding is
// kept here, by identity, as UTF-8 bytes: a 10,000-item LIST copies bytes into one buffer instead
// of encoding 10,000 objects and then the string they make.
import type { KubeObject } from '../engine';
import { goJsonMarshal, type GoJsonValue } from '../engine/http-face';

/**
 * A LIST item's JSON in UTF-8, exactly what goJsonMarshal writes for it: a built-in's item without its
 * TypeMeta (a typed struct's empty kind/apiVersion are omitted), a custom resource's with it
 * (an unstructured object keeps its keys). Memoised per object identity, for each of the two forms;
 * an object leaves the memo with its last reference.
 */
export class ListItemJSON {
  private readonly typed = new WeakMap<KubeObject, Buffer>();
  private readonly unstructured = new WeakMap<KubeObject, Buffer>();

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
}

/** The object as a typed struct encodes it: kind and apiVersion left out. */
export function withoutTypeMeta(obj: KubeObject): Omit<KubeObject, 'kind' | 'apiVersion'> {
  if (obj.kind === undefined && obj.apiVersion === undefined) return obj;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { kind, apiVersion, ...rest } = obj;
  return rest;
}
