// Mirrors kubernetes pkg/apis/core/validation/validation.go (ValidateConfigMap,
// ValidateConfigMapUpdate) and k8s.io/apimachinery pkg/util/validation/validation.go
// (IsConfigMapKey, hasChDirPrefix) (release-1.36): a ConfigMap's keys and size.
// Deliberate difference: keys are checked in sorted order (Go ranges over its maps in random
// order, so upstream's error order varies from request to request).
import type { KubeObject } from '../engine';
import {
  FieldPath,
  forbidden,
  invalid,
  tooLong,
  type FieldError,
  compareStrings,
  utf8Length,
} from '../engine/http-face';

/** validation.DNS1123SubdomainMaxLength: a ConfigMap key's longest length, in bytes. */
const dns1123SubdomainMaxLength = 253;

/**
 * core.MaxSecretSize: a ConfigMap's data and binaryData together (and a Secret's data) hold at
 * most 1 MiB, so that one object stays well under etcd's request limit.
 */
export const maxSecretSize = 1 * 1024 * 1024;

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyRegexp = new RegExp('^' + configMapKeyFmt + '$');
// RegexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"), spacing as upstream.
const configMapKeyRegexError =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '" +
  configMapKeyFmt +
  "')";

/** validation.IsConfigMapKey: a valid key for a ConfigMap or a Secret (a file name in a volume). */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > dns1123SubdomainMaxLength)
    errs.push(`must be no more than ${dns1123SubdomainMaxLength} characters`);
  if (!configMapKeyRegexp.test(value)) errs.push(configMapKeyRegexError);
  // hasChDirPrefix: a key is a file name, never a way out of the volume's directory.
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

// The length of the bytes a base64 value (StdEncoding, checked by the decoder) stands for.
function base64DecodedLength(v: string): number {
  let n = v.length;
  while (n > 0 && v[n - 1] === '=') n--;
  return Math.floor((n * 3) / 4);
}

type StringMap = Readonly<Record<string, unknown>>;

function mapOf(v: unknown): StringMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as StringMap) : {};
}

function sortedKeys(m: StringMap): string[] {
  return Object.keys(m).sort(compareStrings);
}

/**
 * ValidateConfigMap after ValidateObjectMeta (the strategy checks metadata first): each key of
 * data and binaryData, a data key also in binaryData, and the 1 MiB total (data in UTF-8 bytes,
 * binaryData decoded), reported on the empty path `[]` as upstream.
 */
export function validateConfigMapData(obj: KubeObject): FieldError[] {
  const loose = obj as unknown as Record<string, unknown>;
  const data = mapOf(loose.data);
  const binaryData = mapOf(loose.binaryData);
  const errs: FieldError[] = [];
  let totalSize = 0;
  for (const key of sortedKeys(data)) {
    const path = FieldPath.of('data').key(key);
    for (const msg of isConfigMapKey(key)) errs.push(invalid(path, key, msg));
    if (Object.hasOwn(binaryData, key))
      errs.push(invalid(path, key, 'duplicate of key present in binaryData'));
    const value = data[key];
    totalSize += typeof value === 'string' ? utf8Length(value) : 0;
  }
  for (const key of sortedKeys(binaryData)) {
    for (const msg of isConfigMapKey(key))
      errs.push(invalid(FieldPath.of('binaryData').key(key), key, msg));
    const value = binaryData[key];
    totalSize += typeof value === 'string' ? base64DecodedLength(value) : 0;
  }
  if (totalSize > maxSecretSize) errs.push(tooLong(FieldPath.of(''), maxSecretSize));
  return errs;
}

// apiequality.Semantic.DeepEqual of two map fields; absent and null are one nil map in Go, which
// reflect.DeepEqual tells from an empty one.
function sameMap(a: unknown, b: unknown): boolean {
  const nil = (v: unknown): boolean => v === undefined || v === null;
  if (nil(a) || nil(b)) return nil(a) && nil(b);
  const ma = mapOf(a);
  const mb = mapOf(b);
  const ka = Object.keys(ma);
  return (
    ka.length === Object.keys(mb).length && ka.every((k) => Object.hasOwn(mb, k) && ma[k] === mb[k])
  );
}

// A map as it comes back from etcd: protobuf has no empty map, so an empty one reads as nil.
function stored(v: unknown): unknown {
  return Object.keys(mapOf(v)).length === 0 ? undefined : v;
}

const immutableDetail = 'field is immutable when `immutable` is set';

/**
 * ValidateConfigMapUpdate's own rule (before ValidateConfigMap): once `immutable: true` is stored,
 * immutable, data and binaryData may not change.
 */
export function validateConfigMapImmutable(obj: KubeObject, old: KubeObject): FieldError[] {
  const now = obj as unknown as Record<string, unknown>;
  const before = old as unknown as Record<string, unknown>;
  if (before.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (now.immutable !== true) errs.push(forbidden(FieldPath.of('immutable'), immutableDetail));
  if (!sameMap(now.data, stored(before.data)))
    errs.push(forbidden(FieldPath.of('data'), immutableDetail));
  if (!sameMap(now.binaryData, stored(before.binaryData)))
    errs.push(forbidden(FieldPath.of('binaryData'), immutableDetail));
  return errs;
}
