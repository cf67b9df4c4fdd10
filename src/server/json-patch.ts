// Mirrors gopkg.in/evanphx/json-patch.v4 patch.go (v4.13.0, what k8s.io/apiserver release-1.36 vendors): RFC 6902 JSON patch with v4's semantics and error texts.
// v4 is not RFC-strict and the apiserver answers with its quirks, so they are kept: `replace` of a
// missing object key adds it, `test` of a missing key against null passes, `copy` from a missing
// key copies null, negative array indices count from the end, and the text before a path's first
// `/` is ignored (`x/b` is `/b`).
// Deliberate difference: Go compares primitive values by their compacted JSON text (`1` and `1.0`
// differ); documents here are parsed JS values, compared by value. Numbers beyond 2^53 lose
// precision in JSON.parse, as everywhere else in this server.
import {
  GoJsonUnmarshalTypeError,
  goJsonCheckValid,
  goJsonMarshal,
  goJsonParse,
  type GoJsonValue,
  setOwn,
  quote,
} from '../engine/http-face';

/** A parsed JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** One operation as decoded (jsonpatch.Operation, a map of raw fields); null for a JSON null element. */
export type Operation = Readonly<Record<string, JsonValue>> | null;

/**
 * AccumulatedCopySizeLimit as kube-apiserver sets it (server.Config.JSONPatchMaxCopyBytes, 3 MiB):
 * bounds how much a patch of `copy` operations can grow an object.
 */
export const accumulatedCopySizeLimit = 3 * 1024 * 1024;

/** An error from Patch.Apply; its message is the one evanphx/json-patch returns. */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

const errMissing = 'missing value';
const errTestFailed = 'test failed';
const errInvalidIndex = 'invalid index referenced';

/** The Go kind name encoding/json prints in an UnmarshalTypeError. */
export function goJsonKindOf(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * jsonpatch.DecodePatch: the body must be a JSON array of objects (or null: no operations).
 * Throws Go's *json.SyntaxError or *json.UnmarshalTypeError (the handler answers 400 with its text).
 */
export function decodePatch(buf: Uint8Array): Operation[] {
  const syntaxErr = goJsonCheckValid(buf);
  if (syntaxErr) throw syntaxErr;
  const v = goJsonParse(buf) as JsonValue;
  if (v === null) return [];
  if (!Array.isArray(v)) throw new GoJsonUnmarshalTypeError(goJsonKindOf(v), 'jsonpatch.Patch');
  for (const op of v)
    if (op !== null && !isObject(op))
      throw new GoJsonUnmarshalTypeError(goJsonKindOf(op), 'jsonpatch.Operation');
  return v as Operation[];
}

// --- strconv.Atoi, as partialArray parses an index ---

function atoi(key: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(key))
    throw new JsonPatchError(`strconv.Atoi: parsing ${quote(key)}: invalid syntax`);
  const n = BigInt(key);
  if (n > 0x7fffffffffffffffn || n < -0x8000000000000000n)
    throw new JsonPatchError(`strconv.Atoi: parsing ${quote(key)}: value out of range`);
  return n;
}

function invalidIndex(idx: bigint): JsonPatchError {
  return new JsonPatchError(`Unable to access invalid index: ${idx}: ${errInvalidIndex}`);
}

// --- containers: partialDoc and partialArray ---

interface Container {
  /** The value at key; null for a missing key or a JSON null (both are a nil *lazyNode in Go). */
  get(key: string): JsonValue;
  set(key: string, val: JsonValue): void;
  add(key: string, val: JsonValue): void;
  remove(key: string): void;
}

class PartialDoc implements Container {
  constructor(readonly doc: JsonObject) {}
  get(key: string): JsonValue {
    return Object.prototype.hasOwnProperty.call(this.doc, key) ? this.doc[key] : null;
  }
  set(key: string, val: JsonValue): void {
    setOwn(this.doc, key, val);
  }
  add(key: string, val: JsonValue): void {
    setOwn(this.doc, key, val);
  }
  remove(key: string): void {
    if (!Object.prototype.hasOwnProperty.call(this.doc, key))
      throw new JsonPatchError(`Unable to remove nonexistent key: ${key}: ${errMissing}`);
    delete this.doc[key];
  }
}

class PartialArray implements Container {
  constructor(readonly ary: JsonValue[]) {}
  // set is only used by replace, after get has checked the index.
  set(key: string, val: JsonValue): void {
    let idx = atoi(key);
    const len = BigInt(this.ary.length);
    if (idx < 0n) {
      if (idx < -len) throw invalidIndex(idx);
      idx += len;
    }
    this.ary[Number(idx)] = val;
  }
  add(key: string, val: JsonValue): void {
    if (key === '-') {
      this.ary.push(val);
      return;
    }
    let idx: bigint;
    try {
      idx = atoi(key);
    } catch (err) {
      throw new JsonPatchError(
        `value was not a proper array index: '${key}': ${(err as Error).message}`,
      );
    }
    const sz = BigInt(this.ary.length + 1);
    if (idx >= sz) throw invalidIndex(idx);
    if (idx < 0n) {
      if (idx < -sz) throw invalidIndex(idx);
      idx += sz;
    }
    this.ary.splice(Number(idx), 0, val);
  }
  get(key: string): JsonValue {
    let idx = atoi(key);
    const len = BigInt(this.ary.length);
    if (idx < 0n) {
      if (idx < -len) throw invalidIndex(idx);
      idx += len;
    }
    if (idx >= len) throw invalidIndex(idx);
    return this.ary[Number(idx)];
  }
  remove(key: string): void {
    let idx = atoi(key);
    const len = BigInt(this.ary.length);
    if (idx >= len) throw invalidIndex(idx);
    if (idx < 0n) {
      if (idx < -len) throw invalidIndex(idx);
      idx += len;
    }
    this.ary.splice(Number(idx), 1);
  }
}

function containerOf(v: JsonValue): Container | undefined {
  if (Array.isArray(v)) return new PartialArray(v);
  if (isObject(v)) return new PartialDoc(v);
  return undefined;
}

// RFC 6901 unescaping, left to right (strings.NewReplacer("~1", "/", "~0", "~")).
function decodePatchKey(k: string): string {
  return k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

// findObject: the container holding the last segment of path, or undefined when a segment on the
// way is missing, null, not a container, or a bad array index.
function findObject(root: Container, path: string): [Container, string] | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc = root;
  for (const part of split.slice(1, -1)) {
    let next: JsonValue;
    try {
      next = doc.get(decodePatchKey(part));
    } catch {
      return undefined;
    }
    const c = containerOf(next);
    if (!c) return undefined;
    doc = c;
  }
  return [doc, decodePatchKey(split[split.length - 1])];
}

// --- Operation accessors (Kind, Path, From, value) ---

function kindOf(op: Operation): string {
  const v = op?.op;
  return typeof v === 'string' ? v : 'unknown';
}

function stringField(op: Operation, name: 'path' | 'from', missing: string): string {
  const v = op && Object.prototype.hasOwnProperty.call(op, name) ? op[name] : null;
  if (v === null) throw new JsonPatchError(`${missing}: ${errMissing}`);
  if (typeof v !== 'string')
    throw new JsonPatchError(
      `json: cannot unmarshal ${goJsonKindOf(v)} into Go value of type string`,
    );
  return v;
}

const pathOf = (op: Operation): string => stringField(op, 'path', 'operation missing path field');
const fromOf = (op: Operation): string => stringField(op, 'from', 'operation, missing from field');

/** The op's value; undefined when the op has no `value` field (a nil node in Go). */
function valueOf(op: Operation): JsonValue | undefined {
  return op && Object.prototype.hasOwnProperty.call(op, 'value') ? op.value : undefined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** lazyNode.equal: structural equality (null members only equal null members). */
function equal(a: JsonValue, b: JsonValue): boolean {
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => equal(v, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k]));
  }
  return a === b;
}

// --- the operations ---

function add(doc: Container, op: Operation): void {
  let path: string;
  try {
    path = pathOf(op);
  } catch {
    throw new JsonPatchError(`add operation failed to decode path: ${errMissing}`);
  }
  const found = findObject(doc, path);
  if (!found)
    throw new JsonPatchError(
      `add operation does not apply: doc is missing path: "${path}": ${errMissing}`,
    );
  try {
    found[0].add(found[1], structuredClone(valueOf(op) ?? null));
  } catch (err) {
    throw new JsonPatchError(`error in add for path: '${path}': ${errorText(err)}`);
  }
}

function remove(doc: Container, op: Operation): void {
  let path: string;
  try {
    path = pathOf(op);
  } catch {
    throw new JsonPatchError(`remove operation failed to decode path: ${errMissing}`);
  }
  const found = findObject(doc, path);
  if (!found)
    throw new JsonPatchError(
      `remove operation does not apply: doc is missing path: "${path}": ${errMissing}`,
    );
  try {
    found[0].remove(found[1]);
  } catch (err) {
    throw new JsonPatchError(`error in remove for path: '${path}': ${errorText(err)}`);
  }
}

/** Returns the new root when the whole document is replaced. */
function replace(doc: Container, op: Operation): Container | undefined {
  let path: string;
  try {
    path = pathOf(op);
  } catch (err) {
    throw new JsonPatchError(`replace operation failed to decode path: ${errorText(err)}`);
  }
  if (path === '') {
    const c = containerOf(structuredClone(valueOf(op) ?? null));
    // Upstream wraps a nil error here, which fmt prints as %!w(<nil>).
    if (!c) throw new JsonPatchError('replace operation value must be object or array: %!w(<nil>)');
    return c;
  }
  const found = findObject(doc, path);
  if (!found)
    throw new JsonPatchError(
      `replace operation does not apply: doc is missing path: ${path}: ${errMissing}`,
    );
  const [con, key] = found;
  try {
    con.get(key);
  } catch {
    throw new JsonPatchError(
      `replace operation does not apply: doc is missing key: ${path}: ${errMissing}`,
    );
  }
  try {
    con.set(key, structuredClone(valueOf(op) ?? null));
  } catch (err) {
    // Upstream's text says "remove" here.
    throw new JsonPatchError(`error in remove for path: '${path}': ${errorText(err)}`);
  }
  return undefined;
}

function move(doc: Container, op: Operation): void {
  let from: string;
  try {
    from = fromOf(op);
  } catch (err) {
    throw new JsonPatchError(`move operation failed to decode from: ${errorText(err)}`);
  }
  const src = findObject(doc, from);
  if (!src)
    throw new JsonPatchError(
      `move operation does not apply: doc is missing from path: ${from}: ${errMissing}`,
    );
  let val: JsonValue;
  try {
    val = src[0].get(src[1]);
    src[0].remove(src[1]);
  } catch (err) {
    throw new JsonPatchError(`error in move for path: '${src[1]}': ${errorText(err)}`);
  }
  let path: string;
  try {
    path = pathOf(op);
  } catch (err) {
    throw new JsonPatchError(`move operation failed to decode path: ${errorText(err)}`);
  }
  const dst = findObject(doc, path);
  if (!dst)
    throw new JsonPatchError(
      `move operation does not apply: doc is missing destination path: ${path}: ${errMissing}`,
    );
  try {
    dst[0].add(dst[1], val);
  } catch (err) {
    throw new JsonPatchError(`error in move for path: '${path}': ${errorText(err)}`);
  }
}

function test(doc: Container, root: JsonValue, op: Operation): void {
  let path: string;
  try {
    path = pathOf(op);
  } catch (err) {
    throw new JsonPatchError(`test operation failed to decode path: ${errorText(err)}`);
  }
  const failed = new JsonPatchError(`testing value ${path} failed: ${errTestFailed}`);
  const want = valueOf(op);
  if (path === '') {
    if (want !== undefined && equal(root, want)) return;
    throw failed;
  }
  const found = findObject(doc, path);
  if (!found)
    throw new JsonPatchError(
      `test operation does not apply: is missing path: ${path}: ${errMissing}`,
    );
  let val: JsonValue;
  try {
    val = found[0].get(found[1]);
  } catch (err) {
    throw new JsonPatchError(`error in test for path: '${path}': ${errorText(err)}`);
  }
  if (val === null) {
    if (want === undefined || want === null) return;
    throw failed;
  }
  if (want === undefined || !equal(val, want)) throw failed;
}

function copy(doc: Container, op: Operation, accumulated: { size: number; limit: number }): void {
  let from: string;
  try {
    from = fromOf(op);
  } catch (err) {
    throw new JsonPatchError(`copy operation failed to decode from: ${errorText(err)}`);
  }
  const src = findObject(doc, from);
  if (!src)
    throw new JsonPatchError(
      `copy operation does not apply: doc is missing from path: ${from}: ${errMissing}`,
    );
  let val: JsonValue;
  try {
    val = src[0].get(src[1]);
  } catch (err) {
    throw new JsonPatchError(`error in copy for from: '${from}': ${errorText(err)}`);
  }
  let path: string;
  try {
    path = pathOf(op);
  } catch {
    throw new JsonPatchError(`copy operation failed to decode path: ${errMissing}`);
  }
  const dst = findObject(doc, path);
  if (!dst)
    throw new JsonPatchError(
      `copy operation does not apply: doc is missing destination path: ${path}: ${errMissing}`,
    );
  // deepCopy of a nil node is nil and counts nothing.
  if (val !== null) {
    accumulated.size += Buffer.byteLength(goJsonMarshal(val as GoJsonValue));
    if (accumulated.size > accumulated.limit)
      throw new JsonPatchError(
        `Unable to complete the copy, the accumulated size increase of copy is ${accumulated.size}, exceeding the limit ${accumulated.limit}`,
      );
    val = structuredClone(val);
  }
  try {
    dst[0].add(dst[1], val);
  } catch (err) {
    throw new JsonPatchError(`error while adding value during copy: ${errorText(err)}`);
  }
}

/**
 * Patch.Apply: the document after every operation, in order; the input is not modified.
 * copySizeLimit is AccumulatedCopySizeLimit (upstream's tests lower it).
 * Throws JsonPatchError with upstream's message at the first operation that fails.
 */
export function applyJsonPatch(
  document: JsonObject | JsonValue[],
  ops: readonly Operation[],
  copySizeLimit = accumulatedCopySizeLimit,
): JsonValue {
  let rootValue: JsonValue = structuredClone(document);
  let root = containerOf(rootValue) as Container;
  const accumulated = { size: 0, limit: copySizeLimit };
  for (const op of ops) {
    switch (kindOf(op)) {
      case 'add':
        add(root, op);
        break;
      case 'remove':
        remove(root, op);
        break;
      case 'replace': {
        const next = replace(root, op);
        if (next) {
          root = next;
          rootValue = next instanceof PartialArray ? next.ary : (next as PartialDoc).doc;
        }
        break;
      }
      case 'move':
        move(root, op);
        break;
      case 'test':
        test(root, rootValue, op);
        break;
      case 'copy':
        copy(root, op, accumulated);
        break;
      default:
        throw new JsonPatchError(`Unexpected kind: ${kindOf(op)}`);
    }
  }
  return rootValue;
}
