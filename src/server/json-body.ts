// Mirrors k8s.io/apiserver pkg/endpoints/handlers/rest.go (transformDecodeError,
// summarizeData), create.go/update.go (the decode step), negotiation.NegotiateInputSerializer and
// k8s.io/apimachinery pkg/runtime/serializer/json (json.go Decode, meta.go Interpret)
// (release-1.36): a request body decoded as the object an endpoint expects, failing as upstream.
// Deliberate differences: built-in kinds are checked only as far as this server models them
// (apiVersion/kind, ObjectMeta's field types, ConfigMap's and Namespace's own field types; unknown
// and duplicate fields at any depth from the kind's OpenAPI definition, strict-field-validation.ts,
// else unknown top-level and metadata fields); YAML
// errors carry js-yaml's wording, but for go-yaml's alias limit (yaml-to-json.ts); protobuf bodies are
// decoded for the kinds protobuf-messages.ts covers (protobuf-body.ts; the other kinds answer the 415)
// and then read as the JSON they encode; integers beyond 2^53 lose precision (JSON.parse).
import { unknownFieldPaths } from './structural-pruning';
import { StatusError, type KubeObject } from '../engine';
import {
  GoJsonUnmarshalTypeError,
  goJsonParse,
  goJsonUnmarshalStruct,
  type GoJsonSyntaxError,
  setOwn,
  newBadRequest,
  quote,
  objectMetaFieldOrder,
} from '../engine/http-face';
import { protobufBody } from './lazy-protobuf-body';
import { newUnsupportedMediaTypeError } from './status';
import { dropUnknownFields, strictDecodingErrors } from './strict-field-validation';
import { yamlToJSON } from './yaml-to-json';

/** The legacy scheme's serializers in CodecFactory order (the 415's list for built-in kinds). */
export const builtinBodyMediaTypes: readonly string[] = [
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
];

/** A custom resource's serializers (no protobuf). */
export const customResourceBodyMediaTypes: readonly string[] = [
  'application/json',
  'application/yaml',
];

// mime.ParseMediaType, as far as NegotiateInputSerializer depends on it: the lower-cased
// `type/subtype`, or undefined when it is not one (parameters must be attribute=value).
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
function parseMediaType(v: string): string | undefined {
  const [base, ...params] = v.split(';');
  const mt = base.trim().toLowerCase();
  const slash = mt.indexOf('/');
  if (slash < 0 || !token.test(mt.slice(0, slash)) || !token.test(mt.slice(slash + 1)))
    return undefined;
  for (const p of params) {
    const t = p.trim();
    if (t === '') continue;
    const eq = t.indexOf('=');
    if (eq <= 0 || !token.test(t.slice(0, eq).trim())) return undefined;
  }
  return mt;
}

/**
 * negotiation.NegotiateInputSerializerForMediaType: an empty Content-Type is the first supported
 * one; anything that is not exactly a supported media type is a 415 listing them.
 */
export function negotiateInputMediaType(
  contentType: string | undefined,
  supported: readonly string[],
): string {
  const value = contentType && contentType.length > 0 ? contentType : supported[0];
  const mt = parseMediaType(value);
  if (mt !== undefined && supported.includes(mt)) return mt;
  throw newUnsupportedMediaTypeError(supported);
}

/** The kind an endpoint decodes into (scope.Kind), and how. */
export interface ExpectedKind {
  group: string;
  version: string;
  kind: string;
  /** A custom resource: decoded as unstructured (kind required, apiVersion checked after). */
  unstructured: boolean;
  /**
   * The kind's top-level JSON fields, for strict field validation of a built-in kind (undefined:
   * builtinTopLevelFields by kind, or no check).
   */
  topLevelFields?: readonly string[];
  /** A custom resource's structural schema: strict field validation reports what it prunes. */
  openAPIV3Schema?: Readonly<Record<string, unknown>>;
}

/** Top-level JSON fields of the built-in kinds served here (k8s.io/api core/v1 types.go). */
export const builtinTopLevelFields: Readonly<Record<string, readonly string[]>> = {
  Pod: ['kind', 'apiVersion', 'metadata', 'spec', 'status'],
  Namespace: ['kind', 'apiVersion', 'metadata', 'spec', 'status'],
  ConfigMap: ['kind', 'apiVersion', 'metadata', 'immutable', 'data', 'binaryData'],
};

/** metav1.FieldValidation* values: what the decoder does with unknown fields. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** rest.go fieldValidation: the directive, Warn when the request sent none. */
export function fieldValidation(directive: string | undefined): string {
  return directive === undefined || directive === '' ? 'Warn' : directive;
}

export interface DecodedBody {
  object: KubeObject;
  /** The decoded group/version/kind (what create.go checks AcceptsGroupVersion against). */
  group: string;
  version: string;
  kind: string;
  /** Strict-decoding findings sent as Warning headers under fieldValidation=Warn. */
  warnings: string[];
}

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

function gvString(gvk: { group: string; version: string }): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}

// schema.ParseGroupVersion.
function parseGroupVersion(gv: string): { group: string; version: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { group: '', version: gv };
  if (slashes === 1) {
    const i = gv.indexOf('/');
    return { group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  throw new Error(`unexpected GroupVersion string: ${gv}`);
}

// gvkWithDefaults (json.go).
function gvkWithDefaults(actual: GroupVersionKind, def: GroupVersionKind): GroupVersionKind {
  const out = { ...actual };
  if (out.kind === '') out.kind = def.kind;
  if (out.version === '' && out.group === '') {
    out.group = def.group;
    out.version = def.version;
  }
  if (out.version === '' && out.group === def.group) out.version = def.version;
  return out;
}

// The struct SimpleMetaFactory.Interpret unmarshals into, as reflect prints its type.
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** SimpleMetaFactory.Interpret: encoding/json into {apiVersion, kind} (case-insensitive keys). */
export function interpret(data: Uint8Array): GroupVersionKind {
  const r = goJsonUnmarshalStruct(data, {
    pkg: '',
    name: '',
    fields: [
      { name: 'apiVersion', kind: 'string' },
      { name: 'kind', kind: 'string' },
    ],
  });
  if (r.error) {
    let msg = r.error.message;
    if (r.error instanceof GoJsonUnmarshalTypeError && r.error.field === '')
      msg = `json: cannot unmarshal ${r.error.value} into Go value of type ${findKindType}`;
    throw new Error(`couldn't get version/kind; json parse error: ${msg}`);
  }
  const gv = parseGroupVersion(r.values.apiVersion as string);
  return { ...gv, kind: r.values.kind as string };
}

// summarizeData(body, 30): a JSON object's first 30 bytes as text, anything else as hex.
function summarizeData(data: Uint8Array, maxLength: number): string {
  if (data.length === 0) return '<empty>';
  const cut = data.length > maxLength ? data.subarray(0, maxLength) : data;
  const more = data.length > maxLength ? ' ...' : '';
  if (data[0] === 0x7b) return new TextDecoder().decode(cut) + more;
  return Array.from(cut, (b) => b.toString(16).padStart(2, '0')).join('') + more;
}

// transformDecodeError (rest.go lines 245-255).
function transformDecodeError(
  err: Error,
  expected: ExpectedKind,
  gvk: GroupVersionKind | undefined,
  body: Uint8Array,
): StatusError {
  if (gvk && gvk.kind.length > 0)
    return newBadRequest(
      `${gvk.kind} in version ${quote(gvk.version)} cannot be handled as a ${expected.kind}: ${err.message}`,
    );
  return newBadRequest(
    `the object provided is unrecognized (must be of type ${expected.kind}): ${err.message} (${summarizeData(body, 30)})`,
  );
}

// What a JSON value is called in an UnmarshalTypeError.
function jsonValueName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  return 'object';
}

const objectMetaFields = new Set(objectMetaFieldOrder);
const objectMetaStrings = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
];

function typeError(value: unknown, struct: string, field: string, type: string): Error {
  return new Error(
    `json: cannot unmarshal ${jsonValueName(value)} into Go struct field ${struct}.${field} of type ${type}`,
  );
}

// The first type error sigs.k8s.io/json reports decoding ObjectMeta's modelled fields (null is
// always accepted: it leaves the field unset).
function objectMetaTypeError(kind: string, metadata: unknown): Error | undefined {
  if (metadata === null || metadata === undefined) return undefined;
  if (typeof metadata !== 'object' || Array.isArray(metadata))
    return typeError(metadata, kind, 'metadata', 'v1.ObjectMeta');
  for (const [k, v] of Object.entries(metadata)) {
    if (v === null) continue;
    if (objectMetaStrings.includes(k) && typeof v !== 'string')
      return typeError(v, 'ObjectMeta', `metadata.${k}`, 'string');
    if (k === 'generation' && !(typeof v === 'number' && Number.isInteger(v)))
      return new Error(
        `json: cannot unmarshal ${typeof v === 'number' ? `number ${v}` : jsonValueName(v)} into Go struct field ObjectMeta.metadata.generation of type int64`,
      );
    if (k === 'labels' || k === 'annotations') {
      if (typeof v !== 'object' || Array.isArray(v))
        return typeError(v, 'ObjectMeta', `metadata.${k}`, 'map[string]string');
      for (const x of Object.values(v as object))
        if (x !== null && typeof x !== 'string')
          return typeError(x, 'ObjectMeta', `metadata.${k}`, 'string');
    }
    if (k === 'finalizers') {
      if (!Array.isArray(v)) return typeError(v, 'ObjectMeta', 'metadata.finalizers', '[]string');
      for (const x of v)
        if (x !== null && typeof x !== 'string')
          return typeError(x, 'ObjectMeta', 'metadata.finalizers', 'string');
    }
  }
  return undefined;
}

// Go's base64.StdEncoding.Decode error for a []byte field: the first byte it cannot read.
function base64Error(v: string): Error | undefined {
  const alphabet = /[A-Za-z0-9+/]/;
  let i = 0;
  for (; i < v.length && alphabet.test(v[i]); i++);
  // Padding: only at the end, making the length a multiple of 4.
  let pad = 0;
  while (i + pad < v.length && v[i + pad] === '=') pad++;
  const end = i + pad;
  if (end < v.length) return new Error(`illegal base64 data at input byte ${end}`);
  if (pad > 2 || (i + pad) % 4 !== 0 || (pad > 0 && i % 4 < 2))
    return new Error(`illegal base64 data at input byte ${pad > 0 ? i : Math.floor(i / 4) * 4}`);
  return undefined;
}

// A map[string]V field: not an object, or the first value that is not a V (null is V's zero).
function mapFieldError(
  v: unknown,
  struct: string,
  field: string,
  mapType: string,
  value: (x: unknown) => Error | undefined,
): Error | undefined {
  if (typeof v !== 'object' || Array.isArray(v)) return typeError(v, struct, field, mapType);
  for (const x of Object.values(v as object)) {
    if (x === null) continue;
    const err = value(x);
    if (err) return err;
  }
  return undefined;
}

// The first type error sigs.k8s.io/json reports decoding a ConfigMap's or a Namespace's own
// fields (k8s.io/api core/v1 types.go), for one top-level field.
function kindFieldError(kind: string, field: string, v: unknown): Error | undefined {
  if (v === null) return undefined;
  const stringOf =
    (struct: string, path: string, type: string) =>
    (x: unknown): Error | undefined =>
      typeof x === 'string' ? undefined : typeError(x, struct, path, type);
  if (kind === 'ConfigMap') {
    if (field === 'immutable' && typeof v !== 'boolean')
      return typeError(v, 'ConfigMap', 'immutable', 'bool');
    if (field === 'data')
      return mapFieldError(
        v,
        'ConfigMap',
        'data',
        'map[string]string',
        stringOf('ConfigMap', 'data', 'string'),
      );
    if (field === 'binaryData')
      return mapFieldError(v, 'ConfigMap', 'binaryData', 'map[string][]uint8', (x) =>
        typeof x === 'string' ? base64Error(x) : typeError(x, 'ConfigMap', 'binaryData', '[]uint8'),
      );
  }
  if (kind === 'Namespace') {
    if (field === 'spec') {
      if (typeof v !== 'object' || Array.isArray(v))
        return typeError(v, 'Namespace', 'spec', 'v1.NamespaceSpec');
      const f = (v as Record<string, unknown>).finalizers;
      if (f === undefined || f === null) return undefined;
      if (!Array.isArray(f))
        return typeError(f, 'NamespaceSpec', 'spec.finalizers', '[]v1.FinalizerName');
      for (const x of f)
        if (x !== null && typeof x !== 'string')
          return typeError(x, 'NamespaceSpec', 'spec.finalizers', 'v1.FinalizerName');
    }
    if (field === 'status') {
      if (typeof v !== 'object' || Array.isArray(v))
        return typeError(v, 'Namespace', 'status', 'v1.NamespaceStatus');
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === null) continue;
        if (k === 'phase' && typeof x !== 'string')
          return typeError(x, 'NamespaceStatus', 'status.phase', 'v1.NamespacePhase');
        if (k === 'conditions' && !Array.isArray(x))
          return typeError(x, 'NamespaceStatus', 'status.conditions', '[]v1.NamespaceCondition');
      }
    }
  }
  return undefined;
}

// UnmarshalStrict's unknown fields, in document order: top-level, then within metadata.
function unknownFields(obj: Record<string, unknown>, topLevel: readonly string[]): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (!topLevel.includes(k)) out.push(`unknown field ${quote(k)}`);
    else if (k === 'metadata' && v && typeof v === 'object' && !Array.isArray(v))
      for (const mk of Object.keys(v))
        if (!objectMetaFields.has(mk)) out.push(`unknown field ${quote(`metadata.${mk}`)}`);
  }
  return out;
}

function toJSONBytes(body: Uint8Array, mediaType: string): Uint8Array {
  if (mediaType !== 'application/yaml') return body;
  let value: unknown;
  try {
    value = yamlToJSON(new TextDecoder().decode(body));
  } catch (e) {
    // A decoded form past the body limit is the body limit's 413, not a decode error.
    if (e instanceof StatusError) throw e;
    throw new Error(
      `error converting YAML to JSON: yaml: ${(e as { reason?: string }).reason ?? (e as Error).message}`,
    );
  }
  return new TextEncoder().encode(JSON.stringify(value ?? null));
}

export interface DecodeBodyOptions {
  /** The request's Content-Type header. */
  contentType?: string;
  /** The media types the endpoint decodes (default by kind: built-in or custom resource). */
  supportedMediaTypes?: readonly string[];
  /** The fieldValidation query parameter ('' or absent = Warn). */
  fieldValidation?: string;
  /** Other kinds the scheme knows, as `group/version/Kind` (`/v1/ConfigMap` for core). */
  knownKinds?: readonly string[];
}

/**
 * The decode step of createHandler / UpdateResource: the Content-Type (415), then the body as the
 * expected kind. Throws upstream's 400 BadRequest: for unreadable JSON
 * `the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json
 * parse error: unexpected end of JSON input ({"a":)`, for a wrong kind
 * `ConfigMap in version "v1" cannot be handled as a Pod: …`, for a wrong apiVersion of a custom
 * resource `the API version in the data (…) does not match the expected API version (…)`.
 */
export function decodeBody(
  body: Uint8Array,
  expected: ExpectedKind,
  options: DecodeBodyOptions = {},
): DecodedBody {
  const supported =
    options.supportedMediaTypes ??
    (expected.unstructured ? customResourceBodyMediaTypes : builtinBodyMediaTypes);
  let mediaType = negotiateInputMediaType(options.contentType, supported);
  if (
    mediaType === 'application/vnd.kubernetes.protobuf' &&
    !expected.unstructured &&
    protobufBody().hasProtobufMessage(expected)
  ) {
    // kubectl's typed clients send protobuf: read it as the JSON it encodes.
    const { protobufBodyToObject, ProtobufDecodeError } = protobufBody();
    let object: Record<string, unknown>;
    try {
      object = protobufBodyToObject(body, expected);
    } catch (e) {
      if (!(e instanceof ProtobufDecodeError)) throw e;
      throw transformDecodeError(e, expected, e.gvk, body);
    }
    body = new TextEncoder().encode(JSON.stringify(object));
    mediaType = 'application/json';
  }
  if (mediaType !== 'application/json' && mediaType !== 'application/yaml')
    throw newUnsupportedMediaTypeError(supported);
  const directive = fieldValidation(options.fieldValidation);

  let data: Uint8Array;
  let actual: GroupVersionKind;
  try {
    data = toJSONBytes(body, mediaType);
    actual = interpret(data);
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw transformDecodeError(e as Error | GoJsonSyntaxError, expected, undefined, body);
  }
  actual = gvkWithDefaults(actual, expected);
  const value = goJsonParse(data);
  const fail = (err: Error, gvk: GroupVersionKind = actual): never => {
    throw transformDecodeError(err, expected, gvk, body);
  };

  if (expected.unstructured) {
    // unstructuredJSONScheme: only an object with a kind is an Unstructured (Interpret has
    // already refused any other top-level value but null).
    const obj = (value ?? {}) as Record<string, unknown>;
    const kind = typeof obj.kind === 'string' ? obj.kind : '';
    if (kind === '')
      fail(new Error(`Object 'Kind' is missing in '${new TextDecoder().decode(body)}'`));
    const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
    let decoded: { group: string; version: string };
    try {
      decoded = parseGroupVersion(apiVersion);
    } catch {
      decoded = { group: '', version: '' };
    }
    if (decoded.group !== expected.group || decoded.version !== expected.version)
      throw newBadRequest(
        `the API version in the data (${apiVersion}) does not match the expected API version (${gvString(expected)})`,
      );
    // The unknown fields pruning drops, reported per the fieldValidation directive.
    let warnings: string[] = [];
    if (expected.openAPIV3Schema && directive !== 'Ignore') {
      const unknown = unknownFieldPaths(
        obj,
        expected.openAPIV3Schema as Record<string, unknown>,
      ).map((p) => `unknown field ${quote(p)}`);
      if (unknown.length > 0 && directive === 'Strict')
        fail(new Error(`strict decoding error: ${unknown.join(', ')}`));
      if (directive === 'Warn') warnings = unknown;
    }
    return { object: obj as unknown as KubeObject, ...decoded, kind, warnings };
  }

  if (actual.version === '')
    fail(new Error(`Object 'apiVersion' is missing in '${new TextDecoder().decode(body)}'`));
  const same =
    actual.group === expected.group &&
    actual.version === expected.version &&
    actual.kind === expected.kind;
  if (!same) {
    const known = (options.knownKinds ?? []).includes(
      `${actual.group}/${actual.version}/${actual.kind}`,
    );
    if (known)
      fail(
        new Error(
          `converting (${actual.version}.${actual.kind}) to (${internalPackage(expected.group)}.${expected.kind}): unknown conversion`,
        ),
      );
    fail(
      new Error(
        `no kind ${quote(actual.kind)} is registered for version ${quote(gvString(actual))} in scheme "pkg/api/legacyscheme/scheme.go:30"`,
      ),
    );
  }
  // A top-level null leaves the object empty (Interpret has refused any other non-object).
  const obj = (value ?? {}) as Record<string, unknown>;
  // The first type error in document order, as the decoder saves only the first.
  for (const [k, v] of Object.entries(obj)) {
    const err =
      k === 'metadata'
        ? objectMetaTypeError(expected.kind, v)
        : kindFieldError(expected.kind, k, v);
    if (err) fail(err);
  }

  const topLevel = expected.topLevelFields ?? builtinTopLevelFields[expected.kind];
  let warnings: string[] = [];
  // The kind's OpenAPI definition, when the tree has one, says every field it knows.
  const schemaFindings =
    directive === 'Ignore' || expected.topLevelFields
      ? undefined
      : strictDecodingErrors(new TextDecoder().decode(data), expected);
  if (schemaFindings) {
    if (schemaFindings.length > 0 && directive === 'Strict')
      fail(new Error(`strict decoding error: ${schemaFindings.join(', ')}`));
    if (directive === 'Warn') warnings = schemaFindings;
  } else if (topLevel && directive !== 'Ignore') {
    const unknown = unknownFields(obj, topLevel);
    if (unknown.length > 0 && directive === 'Strict')
      fail(new Error(`strict decoding error: ${unknown.join(', ')}`));
    if (directive === 'Warn') warnings = unknown;
  }
  // The typed round trip sets TypeMeta to the endpoint's kind (a body may omit it) and drops
  // every field the kind's Go type lacks, whatever fieldValidation said of it.
  const object: Record<string, unknown> = { kind: expected.kind, apiVersion: gvString(expected) };
  // (Ignore skipped the findings: the walk decides.)
  const known =
    !expected.topLevelFields &&
    (schemaFindings === undefined || schemaFindings.some((f) => f.startsWith('unknown field')))
      ? dropUnknownFields(obj, expected)
      : obj;
  for (const [k, v] of Object.entries(known))
    if (k !== 'kind' && k !== 'apiVersion') setOwn(object, k, v);
  object.metadata ??= {};
  return {
    object: object as unknown as KubeObject,
    group: expected.group,
    version: expected.version,
    kind: expected.kind,
    warnings,
  };
}

// The Go package of a group's internal types (k8s.io/kubernetes/pkg/apis/<name>).
function internalPackage(group: string): string {
  return group === '' ? 'core' : group.split('.')[0];
}
