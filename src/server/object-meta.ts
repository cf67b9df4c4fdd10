// Mirrors k8s.io/apiserver pkg/registry/rest/{create.go,update.go,meta.go} (BeforeCreate,
// BeforeUpdate, WipeObjectMetaSystemFields, FillObjectMetaSystemFields,
// EnsureObjectNamespaceMatchesRequestNamespace),
// pkg/storage/names/generate.go, pkg/registry/generic/registry/store.go (Update's resourceVersion
// rules), apimachinery pkg/api/validation/{objectmeta.go,generic.go} and the strategies of the
// resources served here (kubernetes pkg/registry/core/{pod,configmap,namespace}/strategy.go, the
// namespace FinalizeStrategy with ValidateNamespaceFinalizeUpdate,
// apiextensions-apiserver registry/customresource/strategy.go) (release-1.36): what upstream
// sets and checks in an object's metadata on create and update. Wall-clock time and randomness
// are parameters. Deliberate differences: of the kinds' own validation only the name rules, the
// custom resource's TypeMeta, a pod's containers (required, with a name and an image) and a
// ConfigMap's keys, size and immutability (configmap-validation.ts) are modelled; no defaulting beyond what the strategies' PrepareForCreate/Update do to metadata,
// a pod's status phase and a namespace's phase and finalizer.
import type { GroupResource, KubeObject, ObjectMeta } from '../engine';
import {
  newBadRequest,
  newInvalid,
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
import { validateConfigMapData, validateConfigMapImmutable } from './configmap-validation';
import { newOptimisticLockConflict } from './status';

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
function orderMetadata(meta: ObjectMeta): ObjectMeta {
  const rank = (k: string): number => {
    const r = objectMetaFieldOrder.indexOf(k);
    return r < 0 ? objectMetaFieldOrder.length : r;
  };
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(meta).sort((a, b) => rank(a) - rank(b)))
    setOwn(out, k, (meta as Record<string, unknown>)[k]);
  return out as ObjectMeta;
}

/** What a resource's strategy decides about metadata (rest.RESTCreateStrategy/RESTUpdateStrategy). */
export interface ObjectStrategy {
  /**
   * The kind errors.NewInvalid names (`Pod`, `Widget.example.com`): the object's own for a custom
   * resource (its typer reads the unstructured object's apiVersion and kind).
   */
  groupKind(obj: KubeObject): { group: string; kind: string };
  namespaceScoped: boolean;
  /** AllowUnconditionalUpdate: an update without resourceVersion overwrites the latest. */
  allowUnconditionalUpdate: boolean;
  /** PrepareForCreate. */
  prepareForCreate(obj: KubeObject): void;
  /** PrepareForUpdate. */
  prepareForUpdate(obj: KubeObject, old: KubeObject): void;
  /** Validate: the kind's rules, its name rule included. */
  validate(obj: KubeObject): FieldError[];
  /** ValidateUpdate beyond rest's common metadata checks. */
  validateUpdate(obj: KubeObject, old: KubeObject): FieldError[];
}

const fixedKind = (group: string, kind: string) => (): { group: string; kind: string } => ({
  group,
  kind,
});

type Loose = Record<string, unknown>;

function specOf(obj: KubeObject): unknown {
  return (obj as unknown as Loose).spec;
}

// apiequality.Semantic.DeepEqual for JSON values (key order does not matter).
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  // Own keys only: b's inherited `__proto__` or `constructor` is no key of b.
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Loose)[k], (b as Loose)[k]));
}

// A minimal ValidatePodSpec: containers are required, each with a name and an image.
function validatePodContainers(obj: KubeObject): FieldError[] {
  const path = FieldPath.of('spec', 'containers');
  const containers = (specOf(obj) as Loose | undefined)?.containers;
  if (!Array.isArray(containers) || containers.length === 0) return [required(path, '')];
  const errs: FieldError[] = [];
  containers.forEach((c: Loose | null, i) => {
    if (!c || typeof c.name !== 'string' || c.name === '')
      errs.push(required(path.index(i).child('name'), ''));
    if (!c || typeof c.image !== 'string' || c.image === '')
      errs.push(required(path.index(i).child('image'), ''));
  });
  return errs;
}

/** pod.Strategy: generation 1 on create and +1 per spec change, status Pending, unconditional updates. */
export const podStrategy: ObjectStrategy = {
  groupKind: fixedKind('', 'Pod'),
  namespaceScoped: true,
  allowUnconditionalUpdate: true,
  prepareForCreate(obj) {
    obj.metadata.generation = 1;
    (obj as unknown as Loose).status = { phase: 'Pending' };
  },
  prepareForUpdate(obj, old) {
    const status = (old as unknown as Loose).status;
    if (status === undefined) delete (obj as unknown as Loose).status;
    else (obj as unknown as Loose).status = status;
    if (!deepEqual(specOf(obj), specOf(old)))
      obj.metadata.generation = (obj.metadata.generation ?? 0) + 1;
  },
  // ValidatePodCreate: ValidateObjectMeta(ValidatePodName), then the spec.
  validate: (obj) => [
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
    ...validatePodContainers(obj),
  ],
  validateUpdate: (obj) => validatePodContainers(obj),
};

/** configmap.Strategy: no generation, unconditional updates. */
export const configMapStrategy: ObjectStrategy = {
  groupKind: fixedKind('', 'ConfigMap'),
  namespaceScoped: true,
  allowUnconditionalUpdate: true,
  prepareForCreate() {},
  prepareForUpdate() {},
  // ValidateConfigMap: ValidateObjectMeta(ValidateConfigMapName), then keys and size.
  validate: (obj) => [
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
    ...validateConfigMapData(obj),
  ],
  // ValidateConfigMapUpdate: the immutable rule, then ValidateConfigMap again.
  validateUpdate: (obj, old) => [
    ...validateConfigMapImmutable(obj, old),
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
    ...validateConfigMapData(obj),
  ],
};

/** namespace.Strategy: cluster-scoped, DNS-1123 label names, phase Active, the kubernetes finalizer. */
export const namespaceStrategy: ObjectStrategy = {
  groupKind: fixedKind('', 'Namespace'),
  namespaceScoped: false,
  allowUnconditionalUpdate: true,
  prepareForCreate(obj) {
    const o = obj as unknown as Loose;
    o.status = { phase: 'Active' };
    const spec = (o.spec && typeof o.spec === 'object' ? o.spec : {}) as Loose;
    const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
    if (!finalizers.includes('kubernetes')) spec.finalizers = [...finalizers, 'kubernetes'];
    o.spec = spec;
  },
  prepareForUpdate(obj, old) {
    const o = obj as unknown as Loose;
    const prev = old as unknown as Loose;
    const oldSpec = (prev.spec ?? {}) as Loose;
    const spec = (o.spec && typeof o.spec === 'object' ? o.spec : {}) as Loose;
    if (oldSpec.finalizers === undefined) delete spec.finalizers;
    else spec.finalizers = oldSpec.finalizers;
    o.spec = spec;
    if (prev.status === undefined) delete o.status;
    else o.status = prev.status;
  },
  // ValidateNamespace: ValidateObjectMeta(ValidateNamespaceName); the update repeats it.
  validate: (obj) => validateObjectMetaAccessor(obj.metadata, false, nameIsDNSLabel),
  validateUpdate: (obj) => validateObjectMetaAccessor(obj.metadata, false, nameIsDNSLabel),
};

/**
 * namespace.FinalizeStrategy (the finalize subresource): spec from the request, status kept;
 * ValidateNamespaceFinalizeUpdate: the metadata update rules and each spec.finalizers name.
 */
export const namespaceFinalizeStrategy: ObjectStrategy = {
  ...namespaceStrategy,
  prepareForUpdate(obj, old) {
    const o = obj as unknown as Loose;
    const prev = old as unknown as Loose;
    if (prev.status === undefined) delete o.status;
    else o.status = prev.status;
  },
  validate: namespaceStrategy.validate,
  validateUpdate(obj) {
    const path = FieldPath.of('spec', 'finalizers');
    const f = ((obj as unknown as Loose).spec as Loose | undefined)?.finalizers;
    const errs: FieldError[] = [];
    (Array.isArray(f) ? (f as string[]) : []).forEach((name, i) => {
      for (const m of isLabelKey(name)) errs.push(invalid(path.index(i), name, m));
      // validateFinalizerName: a name without a '/' must be a standard one (kubernetes).
      if (!name.includes('/') && name !== 'kubernetes')
        errs.push(
          invalid(
            path.index(i),
            name,
            'name is neither a standard finalizer name nor is it fully qualified',
          ),
        );
    });
    return errs;
  },
};

function nonMetadata(obj: KubeObject): Loose {
  const out: Loose = {};
  for (const [k, v] of Object.entries(obj)) if (k !== 'metadata') setOwn(out, k, v);
  return out;
}

/**
 * customResourceStrategy: generation 1 on create and +1 for any change outside metadata; no
 * unconditional updates; Validate checks the TypeMeta (`kind: Invalid value: "X": must be Widget`).
 */
export function customResourceStrategy(
  group: string,
  version: string,
  kind: string,
  namespaceScoped: boolean,
): ObjectStrategy {
  const apiVersion = group === '' ? version : `${group}/${version}`;
  const validateTypeMeta = (obj: KubeObject): FieldError[] => {
    const errs: FieldError[] = [];
    if (obj.kind !== kind)
      errs.push(invalid(FieldPath.of('kind'), obj.kind ?? '', `must be ${kind}`));
    if (obj.apiVersion !== apiVersion)
      errs.push(
        invalid(FieldPath.of('apiVersion'), obj.apiVersion ?? '', `must be ${group}/${version}`),
      );
    return errs;
  };
  return {
    groupKind: (obj) => ({
      group: (obj.apiVersion ?? '').includes('/') ? (obj.apiVersion ?? '').split('/')[0] : '',
      kind: obj.kind ?? '',
    }),
    namespaceScoped,
    allowUnconditionalUpdate: false,
    prepareForCreate(obj) {
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      if (!deepEqual(nonMetadata(obj), nonMetadata(old)))
        obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    // customResourceValidator.Validate: TypeMeta, then ValidateObjectMetaAccessor(NameIsDNSSubdomain).
    validate: (obj) => [
      ...validateTypeMeta(obj),
      ...validateObjectMetaAccessor(obj.metadata, namespaceScoped, nameIsDNSSubdomain),
    ],
    validateUpdate: (obj) => validateTypeMeta(obj),
  };
}

const metadataPath = FieldPath.of('metadata');

function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
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

/** rest.EnsureObjectNamespaceMatchesRequestNamespace, with ExpectedNamespaceForScope. */
export function ensureObjectNamespaceMatchesRequestNamespace(
  strategy: Pick<ObjectStrategy, 'namespaceScoped'>,
  requestNamespace: string,
  meta: ObjectMeta,
): void {
  const expected = strategy.namespaceScoped ? requestNamespace : '';
  const objNamespace = meta.namespace ?? '';
  if (objNamespace === expected) return;
  if (objNamespace === '') meta.namespace = expected;
  else if (expected === '') delete meta.namespace;
  else
    throw newBadRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
}

function ensureMetadata(obj: KubeObject): ObjectMeta {
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  return obj.metadata;
}

/** Time and randomness for create: the wall clock and a random source (seeded in tests). */
export interface CreateEnvironment {
  /** Milliseconds since the epoch. */
  now: number;
  rand: RandomSource;
}

/**
 * What generic/registry Store.create does before storage.Create: FillObjectMetaSystemFields
 * (creationTimestamp, uid), the generated name, then rest.BeforeCreate (namespace, PrepareForCreate,
 * the kind's Validate, ValidateObjectMetaAccessor with the path-segment rule). Mutates and returns
 * obj; throws 400 (namespace mismatch) or 422 `Pod "Bad_Name" is invalid: metadata.name: …`.
 * A resourceVersion is left for storage to refuse (`resourceVersion should not be set on objects to
 * be created`, a 500 as upstream).
 */
export function beforeCreate(
  strategy: ObjectStrategy,
  obj: KubeObject,
  requestNamespace: string,
  env: CreateEnvironment,
): KubeObject {
  const meta = ensureMetadata(obj);
  // The create handler's WipeObjectMetaSystemFields, then FillObjectMetaSystemFields.
  const loose = meta as Loose;
  delete loose.deletionTimestamp;
  delete loose.deletionGracePeriodSeconds;
  delete loose.selfLink;
  meta.creationTimestamp = formatTime(env.now);
  meta.uid = newUUID(env.rand);
  if ((meta.generateName ?? '') !== '' && (meta.name ?? '') === '')
    meta.name = generateName(meta.generateName as string, env.rand);
  ensureObjectNamespaceMatchesRequestNamespace(strategy, requestNamespace, meta);
  strategy.prepareForCreate(obj);
  const name = meta.name ?? '';
  const errs = strategy.validate(obj);
  if (errs.length > 0) throw newInvalid(strategy.groupKind(obj), name, errs);
  // Common validation after the kind's own, so that its more specific messages win.
  const pathErrs = validateObjectMetaAccessor(meta, strategy.namespaceScoped, validatePathSegment);
  if (pathErrs.length > 0) throw newInvalid(strategy.groupKind(obj), name, pathErrs);
  obj.metadata = orderMetadata(meta);
  return obj;
}

/**
 * The resourceVersion rules of Store.Update (store.go lines 666-746), given the new object's and
 * the stored object's resourceVersion (0n = none): 'unconditional' when the strategy allows an
 * update without one (the caller stamps the stored RV on the object); a 422
 * `<resource> "<name>" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified
 * for an update` when it does not; the optimistic-lock 409 for a stale one.
 */
export function checkUpdateResourceVersion(
  strategy: Pick<ObjectStrategy, 'allowUnconditionalUpdate'>,
  qualifiedResource: GroupResource,
  name: string,
  newResourceVersion: bigint,
  existingResourceVersion: bigint,
): 'unconditional' | 'conditional' {
  if (newResourceVersion === 0n) {
    if (strategy.allowUnconditionalUpdate) return 'unconditional';
    // Upstream's TODO: the resource stands in for the kind here.
    throw newInvalid({ group: qualifiedResource.group, kind: qualifiedResource.resource }, name, [
      invalid(metadataPath.child('resourceVersion'), 0, 'must be specified for an update'),
    ]);
  }
  if (newResourceVersion !== existingResourceVersion)
    throw newOptimisticLockConflict(qualifiedResource, name);
  return 'conditional';
}

/**
 * rest.BeforeUpdate: namespace, generation from the stored object, PrepareForUpdate, uid and
 * creationTimestamp (and deletion fields) kept from the stored object, then the common metadata
 * validation and ValidateObjectMetaAccessorUpdate. Mutates and returns obj; throws 400 or 422.
 * Call it after checkUpdateResourceVersion (with the resourceVersion stamped when unconditional).
 */
export function beforeUpdate(
  strategy: ObjectStrategy,
  obj: KubeObject,
  old: KubeObject,
  requestNamespace: string,
): KubeObject {
  const meta = ensureMetadata(obj);
  const oldMeta = old.metadata ?? {};
  ensureObjectNamespaceMatchesRequestNamespace(strategy, requestNamespace, meta);
  if (oldMeta.generation === undefined) delete meta.generation;
  else meta.generation = oldMeta.generation;
  strategy.prepareForUpdate(obj, old);
  if ((meta.uid ?? '') === '' && oldMeta.uid !== undefined) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  const loose = meta as Loose;
  const oldLoose = oldMeta as Loose;
  if (
    oldLoose.deletionGracePeriodSeconds !== undefined &&
    loose.deletionGracePeriodSeconds === undefined
  )
    loose.deletionGracePeriodSeconds = oldLoose.deletionGracePeriodSeconds;
  // validateCommonFields, then the kind's ValidateUpdate.
  const errs = [
    ...validateObjectMetaAccessor(meta, strategy.namespaceScoped, validatePathSegment),
    ...validateObjectMetaAccessorUpdate(meta, oldMeta),
    ...strategy.validateUpdate(obj, old),
  ];
  if (errs.length > 0) throw newInvalid(strategy.groupKind(obj), meta.name ?? '', errs);
  obj.metadata = orderMetadata(meta);
  return obj;
}
