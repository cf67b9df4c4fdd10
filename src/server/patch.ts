// Mirrors k8s.io/apiserver pkg/endpoints/handlers/patch.go (release-1.36): the PATCH handler's patch mechanisms (jsonPatcher, smpPatcher) and the checks patcher.applyPatch makes on the result.
// A pure function the PATCH handler calls with the stored object inside GuaranteedUpdate; for
// server-side apply (application/apply-patch+yaml), validateAndTranscodePatch's and
// applyPatcher's decoding of the body (the merge itself is the field manager's). apply-patch+cbor
// is refused with the 415 as kube-apiserver 1.36 refuses it (the CBORServingAndStorage gate off).
import { StatusError, errorToAPIStatus, type KubeObject, type KubernetesVersion } from '../engine';
import {
  newBadRequest,
  newGenericServerResponse,
  newInvalid,
  newRequestEntityTooLargeError,
  FieldPath,
  invalid,
  GoJsonUnmarshalTypeError,
  goJsonCheckValid,
  goJsonParse,
  goJsonMarshal,
  type GoJsonValue,
} from '../engine/http-face';
import { newUnsupportedMediaTypeError } from './status';
import { duplicateKeyMessage, duplicateKeys } from './yaml-duplicate-keys';
import { yamlToJSON } from './yaml-to-json';
import {
  JsonPatchError,
  applyJsonPatch,
  decodePatch,
  goJsonKindOf,
  type JsonObject,
  type JsonValue,
} from './json-patch';
import { MergePatchError, mergePatch } from './merge-patch';
import { patchMetaForKind } from './patch-meta';
import { checkResourceVersionPrecondition } from './resource-version-precondition';
import { StrategicMergePatchError, strategicMergeMapPatch } from './strategic-merge-patch';
import { goFormatValue } from './go-fmt';
import { jsonPatchStrictErrors, patchMapStrictErrors } from './strict-field-validation';

/** types.PatchType values. */
export const PatchType = {
  JSONPatch: 'application/json-patch+json',
  MergePatch: 'application/merge-patch+json',
  StrategicMergePatch: 'application/strategic-merge-patch+json',
  ApplyYAML: 'application/apply-patch+yaml',
} as const;

/** maxJSONPatchOperations: the most operations one JSON patch may hold. */
export const maxJSONPatchOperations = 10000;

/**
 * The PatchOptions' fieldValidation (Warn when absent) and how the patched object is strictly
 * decoded: its `unknown field "spec.foo"` errors (the built-in's codec, or a custom resource's
 * pruning), given the patched document.
 */
export interface PatchValidation {
  directive: string;
  decodeErrors(patchedJSON: string, patched: JsonObject): string[];
}

/** What the handler knows of the resource being patched. */
export interface PatchResource {
  /** '' for core. */
  group: string;
  version: string;
  kind: string;
  /** Plural: `pods`. */
  resource: string;
}

/**
 * The patch content types the resource's PATCH route accepts, in upstream's order: installer.go's
 * list for the built-ins (JSON patch, merge patch, strategic merge patch, apply),
 * customresource_handler.go's for custom resources (no strategic merge patch: an Unstructured
 * object has no patch tags).
 */
export function supportedPatchTypes(
  resource: Pick<PatchResource, 'group' | 'version' | 'kind'>,
): string[] {
  return patchMetaForKind(resource.group, resource.version, resource.kind)
    ? [
        PatchType.JSONPatch,
        PatchType.MergePatch,
        PatchType.StrategicMergePatch,
        PatchType.ApplyYAML,
      ]
    : [PatchType.JSONPatch, PatchType.MergePatch, PatchType.ApplyYAML];
}

/** An apply patch decoded, and the keys it repeats (go-yaml's strict-mode errors). */
export interface ApplyPatchBody {
  readonly object: JsonObject;
  /** `line 7: key "a" already set in map`, in document order. */
  readonly duplicates: readonly string[];
}

/**
 * An apply patch's body as an object, as go-yaml's non-strict decode gives it (a repeated key's
 * last value wins). release-1.36's applyPatcher decodes it with yaml.Unmarshal (400 `error
 * decoding YAML: …`); master first transcodes it for the audit log (validateAndTranscodePatch's
 * yaml.ToJSON: 400 `error encoding patch: error converting YAML to JSON: yaml: …`), then decodes
 * it (400 `error decoding patch: …` for a document that is not a map; null is an empty map).
 */
export function decodeApplyPatch(
  patch: Uint8Array | string,
  version: KubernetesVersion,
): ApplyPatchBody {
  const master = version === '1.37';
  const text = typeof patch === 'string' ? patch : new TextDecoder().decode(patch);
  let value: unknown;
  let duplicates: string[] = [];
  try {
    try {
      value = yamlToJSON(text);
    } catch (e) {
      if ((e as { reason?: string }).reason !== 'duplicated mapping key') throw e;
      value = yamlToJSON(text, undefined, true);
      duplicates = duplicateKeys(text).map(duplicateKeyMessage);
    }
  } catch (e) {
    // A decoded form past the body limit is the body limit's 413.
    if (e instanceof StatusError) throw e;
    const reason = (e as { reason?: string }).reason ?? (e as Error).message;
    throw newBadRequest(
      `${master ? 'error encoding patch' : 'error decoding YAML'}: error converting YAML to JSON: yaml: ${reason}`,
    );
  }
  if (value === null || value === undefined) return { object: {}, duplicates };
  if (!isObject(value as JsonValue))
    throw newBadRequest(
      `${master ? 'error decoding patch' : 'error decoding YAML'}: error unmarshaling JSON: while decoding JSON: ${new GoJsonUnmarshalTypeError(goJsonKindOf(value as JsonValue), 'map[string]interface {}').message}`,
    );
  return { object: value as JsonObject, duplicates };
}

/**
 * applyPatcher's strict decode (fieldValidation Strict or Warn, after the apply): yaml.UnmarshalStrict's
 * error for the repeated keys; Strict refuses the patch with it, Warn warns each line
 * (addStrictDecodingWarnings' parseYAMLWarnings).
 */
export function applyStrictDecoding(
  body: ApplyPatchBody,
  directive: string,
  version: KubernetesVersion,
): string[] {
  if (body.duplicates.length === 0 || (directive !== 'Strict' && directive !== 'Warn')) return [];
  if (directive === 'Warn') return [...body.duplicates];
  throw newBadRequest(
    `error strict decoding ${version === '1.37' ? 'patch' : 'YAML'}: error converting YAML to JSON: yaml: unmarshal errors:\n  ${body.duplicates.join('\n  ')}`,
  );
}

/** The patch type of a Content-Type header: what precedes a `;` (parameters such as charset). */
export function patchTypeOf(contentType: string): string {
  const idx = contentType.indexOf(';');
  return idx > 0 ? contentType.slice(0, idx) : contentType;
}

/**
 * The 415 PatchResource answers first for a content type the route does not accept; undefined
 * when it accepts it. The handler calls this before reading the body, as upstream does.
 */
export function checkPatchContentType(
  contentType: string,
  resource: Pick<PatchResource, 'group' | 'version' | 'kind'>,
): StatusError | undefined {
  const supported = supportedPatchTypes(resource);
  return supported.includes(patchTypeOf(contentType))
    ? undefined
    : newUnsupportedMediaTypeError(supported);
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bytesOf(patch: Uint8Array | string): Uint8Array {
  return typeof patch === 'string' ? new TextEncoder().encode(patch) : patch;
}

// runtime.DecodeInto of a patched document that is not an object: the JSON serializer cannot read
// its apiVersion/kind, and patch.go answers 422 with the document as the bad value.
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

// Go marshals the patched document's maps with sorted keys.
function sortedKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    Object.defineProperty(out, k, {
      value: sortedKeys(v[k]),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return out;
}

function decodeIntoError(patched: JsonValue): StatusError {
  const detail = `couldn't get version/kind; json parse error: ${new GoJsonUnmarshalTypeError(goJsonKindOf(patched), findKindType).message}`;
  return newInvalid({ group: '', kind: '' }, '', [
    invalid(FieldPath.of('patch'), goJsonMarshal(sortedKeys(patched) as GoJsonValue), detail),
  ]);
}

// A plain Go error the handler did not turn into a Status: ErrorToAPIStatus's 500.
function internal(err: unknown): StatusError {
  return new StatusError(errorToAPIStatus(err));
}

// kjson.UnmarshalStrict's failure (not a strict error): applyJSPatch's 400.
function checkStrictDecodable(patchBytes: Uint8Array, into: 'map' | 'ops'): void {
  const syntaxErr = goJsonCheckValid(patchBytes);
  if (syntaxErr) throw newBadRequest(`error decoding patch: ${syntaxErr.message}`);
  const v = goJsonParse(patchBytes) as JsonValue;
  const fits = v === null || (into === 'map' ? isObject(v) : Array.isArray(v));
  if (!fits)
    throw newBadRequest(
      `error decoding patch: ${new GoJsonUnmarshalTypeError(goJsonKindOf(v), into === 'map' ? 'map[string]interface {}' : '[]handlers.jsonPatchOp').message}`,
    );
}

// jsonPatcher.applyJSPatch for application/json-patch+json.
function applyJSONPatchType(current: JsonObject, patchBytes: Uint8Array): JsonValue {
  let ops;
  try {
    ops = decodePatch(patchBytes);
  } catch (err) {
    throw newBadRequest((err as Error).message);
  }
  if (ops.length > maxJSONPatchOperations)
    throw newRequestEntityTooLargeError(
      `The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${ops.length}`,
    );
  try {
    return applyJsonPatch(current, ops);
  } catch (err) {
    if (err instanceof JsonPatchError) throw newGenericServerResponse(422);
    throw err;
  }
}

// jsonPatcher.applyJSPatch for application/merge-patch+json.
function applyMergePatchType(current: JsonObject, patchBytes: Uint8Array): JsonValue {
  try {
    return mergePatch(current, patchBytes);
  } catch (err) {
    if (err instanceof MergePatchError) throw newBadRequest(err.message);
    throw err;
  }
}

// strategicPatchObject + applyPatchToObject + interpretStrategicMergePatchError.
function applyStrategicMergePatchType(
  current: JsonObject,
  patchBytes: Uint8Array,
  resource: PatchResource,
): { patched: JsonValue; patchMap: JsonValue } {
  const schema = patchMetaForKind(resource.group, resource.version, resource.kind);
  // Unreachable through the handler (the content type is refused first), as upstream's
  // ErrUnsupportedStrategicMergePatchFormat is for Unstructured objects.
  if (!schema) throw newBadRequest('strategic merge patch format is not supported');
  const syntaxErr = goJsonCheckValid(patchBytes);
  if (syntaxErr) throw newBadRequest(syntaxErr.message);
  const patchMap = goJsonParse(patchBytes) as JsonValue;
  if (patchMap !== null && !isObject(patchMap))
    throw newBadRequest(
      new GoJsonUnmarshalTypeError(goJsonKindOf(patchMap), 'map[string]interface {}').message,
    );
  try {
    return {
      patched: strategicMergeMapPatch(structuredClone(current), patchMap ?? {}, schema),
      patchMap: patchMap ?? {},
    };
  } catch (err) {
    if (!(err instanceof StrategicMergePatchError)) throw internal(err);
    switch (err.sentinel) {
      case 'ErrBadJSONDoc':
      case 'ErrBadPatchFormatForPrimitiveList':
      case 'ErrBadPatchFormatForRetainKeys':
      case 'ErrBadPatchFormatForSetElementOrderList':
      case 'ErrUnsupportedStrategicMergePatchFormat':
        throw newBadRequest(err.message);
      case 'ErrNoListOfLists':
      case 'ErrPatchContentNotMatchRetainKeys':
        throw newGenericServerResponse(422);
      default:
        throw internal(err);
    }
  }
}

// rest.EnsureObjectNamespaceMatchesRequestNamespace with ExpectedNamespaceForResource, then
// checkName (rest.go): the patched object keeps the name and namespace of the URL.
export function checkNameAndNamespace(
  obj: JsonObject,
  name: string,
  namespace: string,
  resource: PatchResource,
): void {
  if (!isObject(obj.metadata)) obj.metadata = {};
  const meta = obj.metadata;
  const requestNamespace =
    resource.resource === 'namespaces' && resource.group === '' ? '' : namespace;
  const objNamespace = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (objNamespace !== requestNamespace) {
    if (objNamespace === '') meta.namespace = requestNamespace;
    else if (requestNamespace === '') delete meta.namespace;
    else
      throw newBadRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
  }
  const objName = typeof meta.name === 'string' ? meta.name : '';
  if (objName === '')
    throw newBadRequest(
      `the name of the object (${name} based on URL) was undeterminable: name must be provided`,
    );
  if (objName !== name)
    throw newBadRequest(
      `the name of the object (${objName}) does not match the name on the URL (${name})`,
    );
}

// A built-in object is decoded into its Go type and encoded again after the patch: every
// ObjectMeta field is omitempty, so a label map emptied by the patch (or a null) is gone.
// creationTimestamp is a struct, which omitempty keeps (its zero value encodes as null).
function omitEmptyObjectMeta(meta: JsonObject): void {
  for (const [k, v] of Object.entries(meta)) {
    if (k === 'creationTimestamp') continue;
    const empty =
      v === null ||
      v === '' ||
      v === 0 ||
      (Array.isArray(v) && v.length === 0) ||
      (isObject(v) && Object.keys(v).length === 0);
    if (empty) delete meta[k];
  }
}

/**
 * Applies a PATCH body to the stored object, as PatchResource does inside GuaranteedUpdate: the
 * patch mechanism for the content type, the strict decoding of the patch and of the patched
 * object under fieldValidation Strict (422) or Warn (the warnings returned), the name/namespace
 * checks, and the store's resourceVersion precondition (a stale metadata.resourceVersion in the
 * patch: 409 Conflict). current is the stored object (not modified); the URL's name and namespace
 * are its own. Throws StatusError with upstream's code and message.
 */
export function applyPatch(
  contentType: string,
  current: KubeObject,
  patch: Uint8Array | string,
  resource: PatchResource,
  validation?: PatchValidation,
): { object: KubeObject; warnings: string[] } {
  const rejected = checkPatchContentType(contentType, resource);
  if (rejected) throw rejected;
  const patchBytes = bytesOf(patch);
  const currentJSON = current as unknown as JsonObject;
  const strict =
    validation !== undefined &&
    (validation.directive === 'Strict' || validation.directive === 'Warn');
  // The patch's own strict errors (duplicate fields; a JSON patch's unknown op fields).
  let patchStrictErrors: string[] = [];
  let patched: JsonValue;
  // What the strict decoding error names as the bad value: the patched JSON, or the SMP's map.
  let badValue: () => string;
  switch (patchTypeOf(contentType)) {
    case PatchType.JSONPatch:
      if (strict) {
        checkStrictDecodable(patchBytes, 'ops');
        patchStrictErrors = jsonPatchStrictErrors(new TextDecoder().decode(patchBytes));
      }
      patched = applyJSONPatchType(currentJSON, patchBytes);
      badValue = () => goJsonMarshal(sortedKeys(patched) as GoJsonValue);
      break;
    case PatchType.MergePatch:
      if (strict) {
        checkStrictDecodable(patchBytes, 'map');
        patchStrictErrors = patchMapStrictErrors(new TextDecoder().decode(patchBytes));
      }
      patched = applyMergePatchType(currentJSON, patchBytes);
      badValue = () => goJsonMarshal(sortedKeys(patched) as GoJsonValue);
      break;
    default: {
      const smp = applyStrategicMergePatchType(currentJSON, patchBytes, resource);
      if (strict) patchStrictErrors = patchMapStrictErrors(new TextDecoder().decode(patchBytes));
      patched = smp.patched;
      badValue = () => goFormatValue(smp.patchMap);
    }
  }
  if (!isObject(patched)) throw decodeIntoError(patched);
  let warnings: string[] = [];
  if (strict) {
    // The patched object decoded by the strict codec: its errors follow the patch's own.
    const patchedJSON = goJsonMarshal(sortedKeys(patched) as GoJsonValue);
    const errs = [...patchStrictErrors, ...validation.decodeErrors(patchedJSON, patched)];
    if (errs.length > 0 && validation.directive === 'Warn') warnings = errs;
    else if (errs.length > 0)
      throw newInvalid({ group: '', kind: '' }, '', [
        invalid(FieldPath.of('patch'), badValue(), `strict decoding error: ${errs.join(', ')}`),
      ]);
  }

  const name = current.metadata.name ?? '';
  checkNameAndNamespace(patched, name, current.metadata.namespace ?? '', resource);
  if (patchMetaForKind(resource.group, resource.version, resource.kind))
    omitEmptyObjectMeta(patched.metadata as JsonObject);
  const object = patched as unknown as KubeObject;
  try {
    checkResourceVersionPrecondition(
      { group: resource.group, resource: resource.resource },
      name,
      current,
      object,
    );
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw internal(err);
  }
  return { object, warnings };
}
