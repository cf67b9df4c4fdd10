// Mirrors apimachinery pkg/api/validation/{objectmeta.go,generic.go}, pkg/util/validation's
// IsDNS1123Label, k8s.io/apiserver pkg/storage/names/generate.go and util/rand and uuid
// (release-1.36): the rules and names every kind's metadata shares, which the registry's
// BeforeCreate and BeforeUpdate (registry/rest-create.ts, rest-update.ts) and each kind's strategy
// (registry/<kind>-strategy.ts) apply. Randomness is a parameter.
import type { ObjectMeta } from '../engine';
import {
  FieldPath,
  FieldError,
  forbidden,
  invalid,
  required,
  tooLong,
  isDNS1123Subdomain,
  isLabelKey,
  isLabelValue,
  utf8Length,
  setOwn,
  objectMetaFieldOrder,
} from '../engine/http-face';
import { deepEqual } from './registry/strategy';

type Loose = Record<string, unknown>;

/** Random integers in [0, n) (a SeededRandom, or Math.random in a live server). */
export interface RandomSource {
  intn(n: number): number;
}

/** validation.ValidateNameFunc: the messages for a name (prefix: generateName, before the suffix). */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelRegexp = new RegExp('^' + dns1123LabelFmt + '$');
const dns1123SubdomainRegexp = new RegExp('^' + dns1123LabelFmt + '(\\.' + dns1123LabelFmt + ')*$');

/** content.IsDNS1123Label (content/dns.go): at most 63 bytes, no dots. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > 63) errs.push('must be no more than 63 bytes');
  if (!dns1123LabelRegexp.test(value)) {
    if (dns1123SubdomainRegexp.test(value)) errs.push('must not contain dots');
    else
      errs.push(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '" +
          dns1123LabelFmt +
          "')",
      );
  }
  return errs;
}

/**
 * maskTrailingDash (generic.go): a generateName may end in '-'. Upstream drops the last two
 * characters and appends 'a' (`name[:len(name)-2] + "a"`); kept as is.
 */
export function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return name.slice(0, name.length - 2) + 'a';
  return name;
}

/** validation.NameIsDNSSubdomain: pods, configmaps, custom resources. */
export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** validation.NameIsDNSLabel (= ValidateNamespaceName): namespaces. */
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) =>
  isDNS1123Label(prefix ? maskTrailingDash(name) : name);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelRegexp = new RegExp('^' + dns1035LabelFmt + '$');

/** validation.IsDNS1035Label: at most 63 characters, starting with a letter. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035LabelRegexp.test(value))
    errs.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '" +
        dns1035LabelFmt +
        "')",
    );
  return errs;
}

/** apimachineryvalidation.NameIsDNS1035Label (= ValidateServiceName): services. */
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** content.IsPathSegmentName / IsPathSegmentPrefix: rest's validatePathSegment. */
export const validatePathSegment: ValidateNameFunc = (name, prefix) => {
  const errs: string[] = [];
  if (!prefix && (name === '.' || name === '..')) errs.push(`may not be '${name}'`);
  for (const illegal of ['/', '%'])
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
};

/** util/rand's alphabet: no vowels (no words), no 0/1/3 (no look-alikes). */
export const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** utilrand.String(n). */
export function randString(n: number, rand: RandomSource): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphanums[rand.intn(alphanums.length)];
  return s;
}

/** names.MaxGeneratedNameLength: 63 - 5 random characters. */
export const maxGeneratedNameLength = 58;

/** names.SimpleNameGenerator.GenerateName: base cut to 58 bytes, plus 5 random characters. */
export function generateName(base: string, rand: RandomSource): string {
  const cut = utf8Length(base) > maxGeneratedNameLength ? truncateBytes(base, 58) : base;
  return cut + randString(5, rand);
}

function truncateBytes(s: string, n: number): string {
  const bytes = new TextEncoder().encode(s).subarray(0, n);
  return new TextDecoder().decode(bytes);
}

/** uuid.NewUUID: a random (version 4, RFC 4122 variant) UUID. */
export function newUUID(rand: RandomSource): string {
  const b: number[] = [];
  for (let i = 0; i < 16; i++) b.push(rand.intn(256));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = b.map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** metav1.Time as JSON: RFC 3339 in UTC, whole seconds (`2026-12-01T13:20:23Z`). */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

// Puts metadata's keys in Go's ObjectMeta field order (fields set here arrive last otherwise).
export function orderMetadata(meta: ObjectMeta): ObjectMeta {
  const rank = (k: string): number => {
    const r = objectMetaFieldOrder.indexOf(k);
    return r < 0 ? objectMetaFieldOrder.length : r;
  };
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(meta).sort((a, b) => rank(a) - rank(b)))
    setOwn(out, k, (meta as Record<string, unknown>)[k]);
  return out as ObjectMeta;
}

export const metadataPath = FieldPath.of('metadata');

/** ValidateLabels (apimachinery meta/v1/validation): keys are qualified names, values label values. */
export function validateLabels(
  labels: Record<string, string> | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const m of isLabelKey(k)) errs.push(invalid(path, k, m));
    for (const m of isLabelValue(v)) errs.push(invalid(path, v, m));
  }
  return errs;
}

/** TotalAnnotationSizeLimitB: an object's annotations, keys and values, hold at most 256 KiB. */
const totalAnnotationSizeLimitB = 256 * 1024;

// ValidateAnnotations: keys are qualified names (case-insensitive), at most 256 kB in total.
function validateAnnotations(
  annotations: Record<string, string> | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const m of isLabelKey(k.toLowerCase())) errs.push(invalid(path, k, m));
    size += utf8Length(k) + utf8Length(v);
  }
  if (size > totalAnnotationSizeLimitB) errs.push(tooLong(path, totalAnnotationSizeLimitB));
  return errs;
}

/** validation.ValidateObjectMetaAccessor (objectmeta.go): generateName, name, namespace, generation, labels, annotations. */
export function validateObjectMetaAccessor(
  meta: ObjectMeta,
  requiresNamespace: boolean,
  nameFn: ValidateNameFunc,
  fldPath: FieldPath = metadataPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const generate = meta.generateName ?? '';
  if (generate.length !== 0)
    for (const m of nameFn(generate, true))
      errs.push(invalid(fldPath.child('generateName'), generate, m));
  const name = meta.name ?? '';
  if (name.length === 0)
    errs.push(required(fldPath.child('name'), 'name or generateName is required'));
  else for (const m of nameFn(name, false)) errs.push(invalid(fldPath.child('name'), name, m));
  const namespace = meta.namespace ?? '';
  if (requiresNamespace) {
    if (namespace.length === 0) errs.push(required(fldPath.child('namespace'), ''));
    else
      for (const m of nameIsDNSLabel(namespace, false))
        errs.push(invalid(fldPath.child('namespace'), namespace, m));
  } else if (namespace.length !== 0) {
    errs.push(forbidden(fldPath.child('namespace'), 'not allowed on this type'));
  }
  const generation = meta.generation ?? 0;
  if (generation < 0)
    errs.push(
      invalid(fldPath.child('generation'), generation, 'must be greater than or equal to 0'),
    );
  errs.push(...validateLabels(meta.labels, fldPath.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, fldPath.child('annotations')));
  errs.push(...validateFinalizers(finalizersOf(meta), fldPath.child('finalizers')));
  return errs;
}

function finalizersOf(meta: ObjectMeta): string[] {
  const f = (meta as Loose).finalizers;
  return Array.isArray(f) ? (f as string[]) : [];
}

/** validation.ValidateFinalizers: qualified names, not both orphan and foregroundDeletion. */
export function validateFinalizers(finalizers: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers) for (const m of isLabelKey(f)) errs.push(invalid(path, f, m));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion'))
    errs.push(
      invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'),
    );
  return errs;
}

/** Go's %#v of a []string: `[]string{"a", "b"}`. */
function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

const immutableFields = [
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
] as const;

/** validation.ValidateObjectMetaAccessorUpdate: resourceVersion required, generation monotonic, identity immutable. */
export function validateObjectMetaAccessorUpdate(
  meta: ObjectMeta,
  old: ObjectMeta,
  fldPath: FieldPath = metadataPath,
): FieldError[] {
  const errs: FieldError[] = [];
  // ValidateNoNewFinalizers: finalizers cannot be added once the object is being deleted.
  if (old.deletionTimestamp) {
    const before = new Set(finalizersOf(old));
    const extra = [...new Set(finalizersOf(meta))].filter((f) => !before.has(f)).sort();
    if (extra.length > 0)
      errs.push(
        forbidden(
          fldPath.child('finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`,
        ),
      );
  }
  const rv = meta.resourceVersion ?? '';
  if (rv.length === 0)
    errs.push(invalid(fldPath.child('resourceVersion'), rv, 'must be specified for an update'));
  if ((meta.generation ?? 0) < (old.generation ?? 0))
    errs.push(
      invalid(fldPath.child('generation'), meta.generation ?? 0, 'must not be decremented'),
    );
  for (const f of immutableFields) {
    // Absent and empty are one zero value in Go; a nil pointer prints as null.
    const zero = f === 'deletionTimestamp' || f === 'deletionGracePeriodSeconds' ? null : '';
    const now = (meta as Loose)[f] ?? zero;
    const before = (old as Loose)[f] ?? zero;
    if (!deepEqual(now, before)) errs.push(invalid(fldPath.child(f), now, 'field is immutable'));
  }
  errs.push(...validateLabels(meta.labels, fldPath.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, fldPath.child('annotations')));
  return errs;
}
