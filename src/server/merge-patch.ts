// Mirrors gopkg.in/evanphx/json-patch.v4 merge.go (v4.13.0): MergePatch, the RFC 7386 JSON merge patch the apiserver applies for application/merge-patch+json.
// Keys keep the current object's order and new keys are appended (Go's maps re-sort them, and the
// typed decode that follows upstream puts them in struct order).
import { goJsonCheckValid, goJsonParse, setOwn } from '../engine/http-face';
import type { JsonObject, JsonValue } from './json-patch';

/** jsonpatch.ErrBadJSONPatch: the patch is not JSON, is null, or is neither an object nor an array. */
export const errBadJSONPatchMessage = 'Invalid JSON Patch';

/** An error MergePatch returns; the handler answers ErrBadJSONPatch with 400 BadRequest. */
export class MergePatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergePatchError';
  }
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pruneNulls(n: JsonValue): void {
  if (isObject(n)) pruneDocNulls(n);
  else if (Array.isArray(n)) pruneAryNulls(n);
}

function pruneDocNulls(doc: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(doc)) {
    if (v === null) delete doc[k];
    else pruneNulls(v);
  }
  return doc;
}

// Null elements of an array stay (only nulls inside its objects go).
function pruneAryNulls(ary: JsonValue[]): JsonValue[] {
  for (const v of ary) if (v !== null) pruneNulls(v);
  return ary;
}

function merge(cur: JsonValue, patch: JsonValue): JsonValue {
  if (!isObject(cur)) {
    pruneNulls(patch);
    return patch;
  }
  if (!isObject(patch)) return patch;
  mergeDocs(cur, patch);
  return cur;
}

function mergeDocs(doc: JsonObject, patch: JsonObject): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = Object.prototype.hasOwnProperty.call(doc, k) ? doc[k] : null;
    if (cur === null) {
      pruneNulls(v);
      setOwn(doc, k, v);
    } else {
      setOwn(doc, k, merge(cur, v));
    }
  }
}

/**
 * jsonpatch.MergePatch(doc, patch): the merged document (doc is not modified). A patch that is an
 * array replaces the document (its objects' nulls pruned); one that is not JSON, null, or a
 * scalar throws MergePatchError(ErrBadJSONPatch).
 */
export function mergePatch(doc: JsonObject, patchBytes: Uint8Array): JsonValue {
  if (goJsonCheckValid(patchBytes)) throw new MergePatchError(errBadJSONPatchMessage);
  const patch = goJsonParse(patchBytes) as JsonValue;
  if (isObject(patch)) {
    const out = structuredClone(doc);
    mergeDocs(out, patch);
    return out;
  }
  if (Array.isArray(patch)) return pruneAryNulls(patch);
  throw new MergePatchError(errBadJSONPatchMessage);
}
