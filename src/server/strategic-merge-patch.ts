// Mirrors k8s.io/apimachinery pkg/util/strategicpatch/patch.go (StrategicMergeMapPatch and the mergeMap side it uses) and pkg/util/mergepatch/errors.go (release-1.36).
// Only the server side (applying a patch) is ported: maps merge, null deletes, lists are replaced
// unless their field has patchStrategy merge (then merged by patchMergeKey, or as a set of
// scalars), and the directives $patch (replace|delete|merge), $retainKeys,
// $setElementOrder/<field> and $deleteFromPrimitiveList/<field>. Go ranges over maps in random
// order; this port takes the patch's keys in order (upstream's result does not depend on it).
import { goFormatString, goFormatValue, goTypeName } from './go-fmt';
import { sliceStable } from './go-sort';
import { setOwn } from '../engine/http-face';
import type { JsonObject, JsonValue } from './json-patch';
import type { LookupPatchMeta } from './patch-meta';

const directiveMarker = '$patch';
const deleteDirective = 'delete';
const replaceDirective = 'replace';
const mergeDirective = 'merge';
const retainKeysStrategy = 'retainKeys';
const deleteFromPrimitiveListDirectivePrefix = '$deleteFromPrimitiveList';
const retainKeysDirective = '$' + retainKeysStrategy;
const setElementOrderDirectivePrefix = '$setElementOrder';

/** The sentinel errors of mergepatch (errors.go); the PATCH handler maps them to HTTP codes. */
export const MergePatchSentinel = {
  ErrBadJSONDoc: 'invalid JSON document',
  ErrNoListOfLists: 'lists of lists are not supported',
  ErrBadPatchFormatForPrimitiveList: 'invalid patch format of primitive list',
  ErrBadPatchFormatForRetainKeys: 'invalid patch format of retainKeys',
  ErrBadPatchFormatForSetElementOrderList: 'invalid patch format of setElementOrder list',
  ErrPatchContentNotMatchRetainKeys: "patch content doesn't match retainKeys list",
  ErrUnsupportedStrategicMergePatchFormat: 'strategic merge patch format is not supported',
} as const;
export type MergePatchSentinel = keyof typeof MergePatchSentinel;

/** An error of the strategic merge; sentinel names mergepatch's error variable when it is one. */
export class StrategicMergePatchError extends Error {
  constructor(
    message: string,
    readonly sentinel?: MergePatchSentinel,
  ) {
    super(message);
    this.name = 'StrategicMergePatchError';
  }
}

function sentinel(name: MergePatchSentinel): StrategicMergePatchError {
  return new StrategicMergePatchError(MergePatchSentinel[name], name);
}

function errNoMergeKey(m: JsonObject, k: string): StrategicMergePatchError {
  return new StrategicMergePatchError(
    `map: ${goFormatValue(m)} does not contain declared merge key: ${k}`,
  );
}

// ErrBadArgType(expected, actual): expected is a typed nil of the wanted Go type.
function errBadArgType(expected: string, actual: JsonValue): StrategicMergePatchError {
  return new StrategicMergePatchError(
    `expected a ${expected}, but received a ${goTypeName(actual) ?? '%!s(<nil>)'}`,
  );
}
const mapType = 'map[string]interface {}';
const sliceType = '[]interface {}';

function errBadPatchType(t: JsonValue, m: JsonObject): StrategicMergePatchError {
  return new StrategicMergePatchError(
    `unknown patch type: ${goFormatString(t)} in map: ${goFormatValue(m)}`,
  );
}

interface MergeOptions {
  mergeParallelList: boolean;
  ignoreUnmatchedNulls: boolean;
}

type Kind = 'map' | 'slice' | 'scalar';

function isMap(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function has(o: JsonObject, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

// Go's == on two interface{} scalars: same dynamic type and value (int64 and float64 differ).
function goEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a === b && goTypeName(a) === goTypeName(b);
}

/**
 * StrategicMergeMapPatchUsingLookupPatchMeta: applies patch to original, as the apiserver does
 * (parallel lists merged, unmatched nulls ignored). Both maps are modified, as upstream's are.
 */
export function strategicMergeMapPatch(
  original: JsonObject,
  patch: JsonObject,
  schema: LookupPatchMeta,
): JsonObject {
  return mergeMap(original, patch, schema, { mergeParallelList: true, ignoreUnmatchedNulls: true });
}

function handleDirectiveInMergeMap(directive: JsonValue, patch: JsonObject): JsonObject {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return patch;
  }
  if (directive === deleteDirective) return {};
  throw errBadPatchType(directive, patch);
}

function containsDirectiveMarker(item: JsonValue): boolean {
  return isMap(item) && has(item, directiveMarker);
}

function mergeKeyValueEqual(left: JsonValue, right: JsonValue, mergeKey: string): boolean {
  if (mergeKey.length === 0) return goEqual(left, right);
  if (!isMap(left)) throw errBadArgType(mapType, left);
  if (!isMap(right)) throw errBadArgType(mapType, right);
  if (!has(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!has(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListDirectivePrefix)
      throw sentinel('ErrBadPatchFormatForPrimitiveList');
    throw sentinel('ErrBadPatchFormatForSetElementOrderList');
  }
  return s.slice(slash + 1);
}

function validatePatchWithSetOrderList(
  patchList: JsonValue[],
  setOrderList: JsonValue[],
  mergeKey: string,
): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDeleteList = mergeKey.length > 0 ? extractToDeleteItems(patchList)[0] : patchList;
  let patchIndex = 0;
  let setOrderIndex = 0;
  while (patchIndex < nonDeleteList.length && setOrderIndex < setOrderList.length) {
    if (containsDirectiveMarker(nonDeleteList[patchIndex])) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(nonDeleteList[patchIndex], setOrderList[setOrderIndex], mergeKey))
      patchIndex++;
    setOrderIndex++;
  }
  if (patchIndex < nonDeleteList.length && setOrderIndex >= setOrderList.length)
    throw new StrategicMergePatchError(
      `The order in patch list:\n${goFormatValue(patchList)}\n doesn't match ${setElementOrderDirectivePrefix} list:\n${goFormatValue(setOrderList)}\n`,
    );
}

function applyRetainKeysDirective(original: JsonObject, patch: JsonObject): void {
  if (!has(patch, retainKeysDirective)) return;
  const retainKeysInPatch = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(retainKeysInPatch)) throw sentinel('ErrBadPatchFormatForRetainKeys');
  const retained = (k: string): boolean => retainKeysInPatch.some((v) => v === k);
  for (const [k, v] of Object.entries(patch)) {
    if (
      v === null ||
      k.startsWith(deleteFromPrimitiveListDirectivePrefix) ||
      k.startsWith(setElementOrderDirectivePrefix)
    )
      continue;
    if (!retained(k)) throw sentinel('ErrBadPatchFormatForRetainKeys');
  }
  for (const k of Object.keys(original)) if (!retained(k)) delete original[k];
}

// mergePatchIntoOriginal: each $setElementOrder list with the list it orders, merged and sorted
// by precedence $setElementOrder > order in the patch list > order in the live list.
function mergePatchIntoOriginal(
  original: JsonObject,
  patch: JsonObject,
  schema: LookupPatchMeta,
  mergeOptions: MergeOptions,
): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderDirectivePrefix) || !has(patch, key)) continue;
    const setElementOrderInPatch = patch[key];
    delete patch[key];
    if (!Array.isArray(setElementOrderInPatch))
      throw errBadArgType(sliceType, setElementOrderInPatch);
    const originalKey = extractKey(key, setElementOrderDirectivePrefix);
    const foundOriginal = has(original, originalKey);
    const foundPatch = has(patch, originalKey);
    let originalFieldValue: JsonValue[] = [];
    let patchFieldValue: JsonValue[] = [];
    if (foundOriginal) {
      const v = original[originalKey];
      if (!Array.isArray(v)) throw errBadArgType(sliceType, v);
      originalFieldValue = v;
    }
    if (foundPatch) {
      const v = patch[originalKey];
      if (!Array.isArray(v)) throw errBadArgType(sliceType, v);
      patchFieldValue = v;
    }
    const [subschema, patchMeta] = schema.lookupPatchMetadataForSlice(originalKey);
    const patchStrategy = extractRetainKeysPatchStrategy(patchMeta.patchStrategies);
    const mergeKey = patchMeta.patchMergeKey;
    validatePatchWithSetOrderList(patchFieldValue, setElementOrderInPatch, mergeKey);

    let merged: JsonValue[];
    if (foundOriginal && !foundPatch) merged = originalFieldValue;
    else if (!foundOriginal && foundPatch)
      merged = removeDirectives(patchFieldValue)[0] as JsonValue[];
    else if (foundOriginal && foundPatch)
      merged = mergeSliceHandler(
        originalFieldValue,
        patchFieldValue,
        subschema,
        patchStrategy,
        mergeKey,
        false,
        mergeOptions,
      );
    else continue;

    const [patchItems, serverOnlyItems] =
      mergeKey.length === 0
        ? partitionPrimitivesByPresentInList(merged, setElementOrderInPatch)
        : partitionMapsByPresentInList(merged, setElementOrderInPatch, mergeKey);
    const kind = sliceElementType(originalFieldValue, patchFieldValue);
    setOwn(
      original,
      originalKey,
      normalizeElementOrder(
        patchItems,
        serverOnlyItems,
        setElementOrderInPatch,
        originalFieldValue,
        mergeKey,
        kind,
      ),
    );
    delete patch[originalKey];
  }
}

function partitionPrimitivesByPresentInList(
  original: JsonValue[],
  partitionBy: JsonValue[],
): [JsonValue[], JsonValue[]] {
  const patch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of original) {
    if (partitionBy.some((p) => goEqual(p, v))) patch.push(v);
    else serverOnly.push(v);
  }
  return [patch, serverOnly];
}

function partitionMapsByPresentInList(
  original: JsonValue[],
  partitionBy: JsonValue[],
  mergeKey: string,
): [JsonValue[], JsonValue[]] {
  const patch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of original) {
    if (!isMap(v)) throw errBadArgType(mapType, v);
    if (!has(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    if (findMapInSliceBasedOnKeyValue(partitionBy, mergeKey, v[mergeKey])) patch.push(v);
    else serverOnly.push(v);
  }
  return [patch, serverOnly];
}

/** removeDirectives: the value without $patch maps; [value, keep]. */
function removeDirectives(obj: JsonValue): [JsonValue, boolean] {
  if (obj === null) return [obj, true];
  if (isMap(obj)) {
    if (has(obj, directiveMarker)) return [null, false];
    for (const [k, v] of Object.entries(obj)) {
      const [nv, keep] = removeDirectives(v);
      if (keep) setOwn(obj, k, nv);
      else delete obj[k];
    }
    return [obj, true];
  }
  if (Array.isArray(obj)) {
    const res: JsonValue[] = [];
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v);
      if (keep) res.push(nv);
    }
    return [res, true];
  }
  return [obj, true];
}

function kindOfValue(v: JsonValue): Kind {
  return isMap(v) ? 'map' : Array.isArray(v) ? 'slice' : 'scalar';
}

// reflect.TypeOf equality of two decoded values.
function sameGoType(a: JsonValue, b: JsonValue): boolean {
  return goTypeName(a) === goTypeName(b);
}

function mergeMap(
  original: JsonObject | null,
  patch: JsonObject,
  schema: LookupPatchMeta,
  mergeOptions: MergeOptions,
): JsonObject {
  if (has(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker], patch);
  const out = original ?? {};
  applyRetainKeysDirective(out, patch);
  mergePatchIntoOriginal(out, patch, schema, mergeOptions);

  for (const patchKey of Object.keys(patch)) {
    const patchV = patch[patchKey];
    let k = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListDirectivePrefix)) {
      isDeleteList = true;
      const noPrefixKey = extractKey(patchKey, deleteFromPrimitiveListDirectivePrefix);
      if (noPrefixKey.length > 0) k = noPrefixKey;
    }

    // A null deletes the key; an unmatched null is dropped (IgnoreUnmatchedNulls).
    if (patchV === null) {
      delete out[k];
      if (mergeOptions.ignoreUnmatchedNulls) continue;
    }

    if (!has(out, k) || !sameGoType(out[k], patchV)) {
      if (!isDeleteList) {
        if (mergeOptions.ignoreUnmatchedNulls) discardNullValuesFromPatch(patchV);
        const [v, keep] = removeDirectives(patchV);
        if (keep) setOwn(out, k, v);
        else delete out[k];
      }
      continue;
    }

    const originalV = out[k];
    switch (kindOfValue(originalV)) {
      case 'map': {
        const [subschema, patchMeta] = schema.lookupPatchMetadataForStruct(k);
        const patchStrategy = extractRetainKeysPatchStrategy(patchMeta.patchStrategies);
        setOwn(out, k, mergeMapHandler(originalV, patchV, subschema, patchStrategy, mergeOptions));
        break;
      }
      case 'slice': {
        const [subschema, patchMeta] = schema.lookupPatchMetadataForSlice(k);
        const patchStrategy = extractRetainKeysPatchStrategy(patchMeta.patchStrategies);
        setOwn(
          out,
          k,
          mergeSliceHandler(
            originalV as JsonValue[],
            patchV as JsonValue[],
            subschema,
            patchStrategy,
            patchMeta.patchMergeKey,
            isDeleteList,
            mergeOptions,
          ),
        );
        break;
      }
      default: {
        const [v, keep] = removeDirectives(patchV);
        if (keep) setOwn(out, k, v);
        else delete out[k];
      }
    }
  }
  return out;
}

function discardNullValuesFromPatch(patchV: JsonValue): void {
  if (isMap(patchV)) {
    for (const [k, v] of Object.entries(patchV)) {
      if (v === null) delete patchV[k];
      else discardNullValuesFromPatch(v);
    }
  } else if (Array.isArray(patchV)) {
    for (const v of patchV) discardNullValuesFromPatch(v);
  }
}

function mergeMapHandler(
  original: JsonValue,
  patch: JsonValue,
  schema: LookupPatchMeta,
  fieldPatchStrategy: string,
  mergeOptions: MergeOptions,
): JsonObject {
  if (!isMap(original)) throw errBadArgType(mapType, original);
  if (!isMap(patch)) throw errBadArgType(mapType, patch);
  if (fieldPatchStrategy !== replaceDirective)
    return mergeMap(original, patch, schema, mergeOptions);
  return patch;
}

function mergeSliceHandler(
  original: JsonValue[],
  patch: JsonValue[],
  schema: LookupPatchMeta,
  fieldPatchStrategy: string,
  fieldPatchMergeKey: string,
  isDeleteList: boolean,
  mergeOptions: MergeOptions,
): JsonValue[] {
  // Delete lists are handled the same way whatever the field's patch strategy is.
  if (fieldPatchStrategy === mergeDirective || isDeleteList)
    return mergeSlice(original, patch, schema, fieldPatchMergeKey, mergeOptions, isDeleteList);
  return patch;
}

function mergeSlice(
  originalIn: JsonValue[],
  patchIn: JsonValue[],
  schema: LookupPatchMeta,
  mergeKey: string,
  mergeOptions: MergeOptions,
  isDeleteList: boolean,
): JsonValue[] {
  if (originalIn.length === 0 && patchIn.length === 0) return originalIn;
  const kind = sliceElementType(originalIn, patchIn);
  let original = originalIn;
  let patch = patchIn;
  let merged: JsonValue[];
  if (kind !== 'map') {
    if (mergeOptions.mergeParallelList && isDeleteList) return deleteFromSlice(original, patch);
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '')
      throw new StrategicMergePatchError(
        `cannot merge lists without merge key for ${schema.name()}`,
      );
    [original, patch] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(original, patch, mergeKey, schema, mergeOptions);
  }
  const [patchItems, serverOnlyItems] =
    mergeKey.length === 0
      ? partitionPrimitivesByPresentInList(merged, patch)
      : partitionMapsByPresentInList(merged, patch, mergeKey);
  return normalizeElementOrder(patchItems, serverOnlyItems, patch, original, mergeKey, kind);
}

function mergeSliceWithSpecialElements(
  original: JsonValue[],
  patch: JsonValue[],
  mergeKey: string,
): [JsonValue[], JsonValue[]] {
  const patchWithoutSpecialElements: JsonValue[] = [];
  let replace = false;
  let out = original;
  for (const v of patch) {
    const typedV = v as JsonObject;
    if (!has(typedV, directiveMarker)) {
      patchWithoutSpecialElements.push(v);
      continue;
    }
    const patchType = typedV[directiveMarker];
    if (patchType === deleteDirective) {
      if (!has(typedV, mergeKey)) throw errNoMergeKey(typedV, mergeKey);
      out = deleteMatchingEntries(out, mergeKey, typedV[mergeKey]);
    } else if (patchType === replaceDirective) {
      // Go on through the list to drop any other $patch elements.
      replace = true;
    } else if (patchType === mergeDirective) {
      throw new StrategicMergePatchError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(patchType, typedV);
    }
  }
  if (replace) return [patchWithoutSpecialElements, []];
  return [out, patchWithoutSpecialElements];
}

function deleteMatchingEntries(
  original: JsonValue[],
  mergeKey: string,
  mergeValue: JsonValue,
): JsonValue[] {
  const out = [...original];
  for (;;) {
    const found = findMapInSliceBasedOnKeyValue(out, mergeKey, mergeValue);
    if (!found) return out;
    out.splice(found[1], 1);
  }
}

function mergeSliceWithoutSpecialElements(
  original: JsonValue[],
  patch: JsonValue[],
  mergeKey: string,
  schema: LookupPatchMeta,
  mergeOptions: MergeOptions,
): JsonValue[] {
  const out = [...original];
  for (const v of patch) {
    const typedV = v as JsonObject;
    if (!has(typedV, mergeKey)) throw errNoMergeKey(typedV, mergeKey);
    const found = findMapInSliceBasedOnKeyValue(out, mergeKey, typedV[mergeKey]);
    if (found) out[found[1]] = mergeMap(found[0], typedV, schema, mergeOptions);
    else out.push(v);
  }
  return out;
}

// deleteFromSlice: the parallel $deleteFromPrimitiveList list removes scalars.
function deleteFromSlice(current: JsonValue[], toDelete: JsonValue[]): JsonValue[] {
  return current.filter((v) => !toDelete.some((d) => goEqual(d, v)));
}

/** The first map whose key equals value: [map, index], or undefined. */
function findMapInSliceBasedOnKeyValue(
  m: JsonValue[],
  key: string,
  value: JsonValue,
): [JsonObject, number] | undefined {
  for (let k = 0; k < m.length; k++) {
    const typedV = m[k];
    if (!isMap(typedV)) throw new StrategicMergePatchError(`value for key ${k} is not a map`);
    if (has(typedV, key) && goEqual(typedV[key], value)) return [typedV, k];
  }
  return undefined;
}

// Upstream's in-place deduplication (a duplicate is overwritten by the last element), kept for
// the order it leaves.
function deduplicateScalars(s: JsonValue[]): JsonValue[] {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEqual(s[i], s[j])) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

/** The Go kind of the elements of all the lists; they must agree and not be lists. */
function sliceElementType(...slices: JsonValue[][]): Kind {
  let prev: JsonValue | undefined;
  for (const s of slices) {
    for (const v of s) {
      if (prev === undefined) {
        prev = v;
        if (Array.isArray(v)) throw sentinel('ErrNoListOfLists');
      } else if (!sameGoType(prev, v)) {
        throw new StrategicMergePatchError(
          `list element types are not identical: ${goFormatValue(slices)}`,
        );
      }
    }
  }
  if (prev === undefined)
    throw new StrategicMergePatchError('no elements in any of the given slices');
  return kindOfValue(prev);
}

function extractRetainKeysPatchStrategy(strategies: readonly string[]): string {
  switch (strategies.length) {
    case 0:
      return '';
    case 1:
      return strategies[0] === retainKeysStrategy ? '' : strategies[0];
    case 2:
      if (strategies[0] === retainKeysStrategy) return strategies[1];
      if (strategies[1] === retainKeysStrategy) return strategies[0];
  }
  throw new StrategicMergePatchError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

// --- element order (normalizeElementOrder and its helpers) ---

function normalizeElementOrder(
  patch: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: JsonValue[],
  serverOrder: JsonValue[],
  mergeKey: string,
  kind: Kind,
): JsonValue[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

// mergeSortedSlice inserts each of left (server-only items) into right (patch items) before the
// first right item the live order puts after it, keeping both lists' relative order.
function mergeSortedSlice(
  left: JsonValue[],
  right: JsonValue[],
  serverOrder: JsonValue[],
  mergeKey: string,
  kind: Kind,
): JsonValue[] {
  const size = left.length + right.length;
  const s: JsonValue[] = [];
  let i = 0;
  let j = 0;
  for (let k = 0; k < size; k++) {
    if (i >= left.length && j < right.length) s.push(right[j++]);
    else if (j >= right.length && i < left.length) s.push(left[i++]);
    else {
      const li = index(serverOrder, left[i], mergeKey, kind);
      const ri = index(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) s.push(left[i++]);
      else s.push(right[j++]);
    }
  }
  return s;
}

function index(l: JsonValue[], valToLookUp: JsonValue, mergeKey: string, kind: Kind): number {
  const val = (item: JsonValue): JsonValue | undefined =>
    kind === 'map' ? (isMap(item) ? (has(item, mergeKey) ? item[mergeKey] : null) : null) : item;
  const want = val(valToLookUp);
  for (let i = 0; i < l.length; i++) if (goEqual(want, val(l[i]))) return i;
  return -1;
}

function extractToDeleteItems(l: JsonValue[]): [JsonValue[], JsonValue[]] {
  const nonDelete: JsonValue[] = [];
  const toDelete: JsonValue[] = [];
  for (const v of l) {
    if (!isMap(v)) throw errBadArgType(mapType, v);
    if (has(v, directiveMarker) && v[directiveMarker] === deleteDirective) toDelete.push(v);
    else nonDelete.push(v);
  }
  return [nonDelete, toDelete];
}

function validateMergeKeyInLists(mergeKey: string, ...lists: JsonValue[][]): void {
  for (const list of lists)
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType(mapType, item);
      if (!has(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
}

function normalizeSliceOrder(
  toSortIn: JsonValue[],
  order: JsonValue[],
  mergeKey: string,
  kind: Kind,
): JsonValue[] {
  let toSort = toSortIn;
  let toDelete: JsonValue[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, order);
    [toSort, toDelete] = extractToDeleteItems(toSort);
  } else {
    toSort = [...toSort];
  }
  sliceStable(toSort, (a, b) => {
    const ii = index(order, a, mergeKey, kind);
    if (ii >= 0) {
      const ij = index(order, b, mergeKey, kind);
      if (ij >= 0) return ii < ij;
    }
    return true;
  });
  return [...toSort, ...toDelete];
}
