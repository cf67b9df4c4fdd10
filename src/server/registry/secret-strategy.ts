// Mirrors kubernetes pkg/registry/core/secret/strategy.go (release-1.36) with ValidateSecret and
// ValidateSecretUpdate (pkg/apis/core/validation/validation.go): no generation, no status,
// unconditional updates; data keys (IsConfigMapKey), the 1 MiB total of the decoded values, each
// type's required keys; on update the type is immutable and an `immutable: true` secret keeps its
// data. Defaults (type Opaque) and the stringData merge run when the body is decoded
// (defaults/core-v1-defaults.ts). Deliberate difference: keys are reported in sorted order (Go
// ranges over the map in random order).
import type { KubeObject } from '../../engine';
import {
  FieldPath,
  forbidden,
  goJsonCheckValid,
  invalid,
  required,
  tooLong,
  compareStrings,
  type FieldError,
} from '../../engine/http-face';
import { isConfigMapKey, maxSecretSize } from '../configmap-validation';
import { nameIsDNSSubdomain, validateObjectMetaAccessor } from '../object-meta';
import { deepEqual, fixedKind, strategyDefaults, type ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

const objectOf = (v: unknown): Loose =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {};

// The length of the bytes a base64 value (checked by the decoder) stands for.
function decodedLength(v: unknown): number {
  if (typeof v !== 'string') return 0;
  let n = v.length;
  while (n > 0 && v[n - 1] === '=') n--;
  return Math.floor((n * 3) / 4);
}

const dataPath = FieldPath.of('data');

// json.Unmarshal(data, &map[string]interface{}{}): Go's error, or undefined.
function jsonObjectError(value: unknown): string | undefined {
  const bytes = Buffer.from(typeof value === 'string' ? value : '', 'base64');
  const syntax = goJsonCheckValid(bytes);
  if (syntax) return syntax.message;
  const first = bytes.toString('utf8').trimStart()[0];
  const kinds: Record<string, string> = { '[': 'array', '"': 'string', t: 'bool', f: 'bool' };
  if (first === '{' || first === 'n') return undefined;
  return `json: cannot unmarshal ${kinds[first] ?? 'number'} into Go value of type map[string]interface {}`;
}

/** ValidateSecret after its ObjectMeta: keys, size, and what each type requires. */
function validateSecretData(obj: KubeObject): FieldError[] {
  const secret = obj as unknown as Loose;
  const data = objectOf(secret.data);
  const errs: FieldError[] = [];
  let totalSize = 0;
  for (const key of Object.keys(data).sort(compareStrings)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(dataPath.key(key), key, msg));
    totalSize += decodedLength(data[key]);
  }
  if (totalSize > maxSecretSize) errs.push(tooLong(dataPath, maxSecretSize));
  const has = (k: string): boolean => Object.hasOwn(data, k);
  const redacted = '<secret contents redacted>';
  switch (secret.type) {
    case 'kubernetes.io/service-account-token':
      if (!obj.metadata.annotations?.['kubernetes.io/service-account.name'])
        errs.push(
          required(
            FieldPath.of('metadata', 'annotations').key('kubernetes.io/service-account.name'),
            '',
          ),
        );
      break;
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const key = secret.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!has(key)) {
        errs.push(required(dataPath.key(key), ''));
        break;
      }
      const err = jsonObjectError(data[key]);
      if (err) errs.push(invalid(dataPath.key(key), redacted, err));
      break;
    }
    case 'kubernetes.io/basic-auth':
      // username or password may be empty, but one of them must be present.
      if (!has('username') && !has('password'))
        errs.push(required(dataPath.key('username'), ''), required(dataPath.key('password'), ''));
      break;
    case 'kubernetes.io/ssh-auth':
      if (decodedLength(data['ssh-privatekey']) === 0)
        errs.push(required(dataPath.key('ssh-privatekey'), ''));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(required(dataPath.key('tls.crt'), ''));
      if (!has('tls.key')) errs.push(required(dataPath.key('tls.key'), ''));
      break;
  }
  return errs;
}

// Semantic.DeepEqual of two map[string][]byte: absent and null are one nil map; an empty map, as
// read back from etcd, is nil too.
const storedMap = (v: unknown): unknown => (Object.keys(objectOf(v)).length === 0 ? null : v);

const immutableDetail = 'field is immutable when `immutable` is set';

/** ValidateSecretUpdate's own rules (before ValidateSecret). */
function validateSecretUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const now = obj as unknown as Loose;
  const before = old as unknown as Loose;
  const errs: FieldError[] = [];
  if ((now.type ?? '') !== (before.type ?? ''))
    errs.push(invalid(FieldPath.of('type'), now.type ?? '', 'field is immutable'));
  if (before.immutable === true) {
    if (now.immutable !== true) errs.push(forbidden(FieldPath.of('immutable'), immutableDetail));
    if (!deepEqual(storedMap(now.data), storedMap(before.data)))
      errs.push(forbidden(FieldPath.of('data'), immutableDetail));
  }
  return errs;
}

/** secret.Strategy. */
export const secretStrategy: ObjectStrategy = {
  ...strategyDefaults,
  groupKind: fixedKind('', 'Secret'),
  namespaceScoped: true,
  allowUnconditionalUpdate: true,
  prepareForCreate() {},
  prepareForUpdate() {},
  validate: (obj) => [
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
    ...validateSecretData(obj),
  ],
  validateUpdate: (obj, old) => [
    ...validateSecretUpdate(obj, old),
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
    ...validateSecretData(obj),
  ],
  resetFields: () => ({}),
};
