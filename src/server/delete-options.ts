// Mirrors k8s.io/apiserver pkg/endpoints/handlers/delete.go (release-1.36) DeleteResource's
// options: a metav1.DeleteOptions body (decoded with Go's field types: a wrong one is the 400
// before anything is deleted), else the query parameters (ParameterCodec), then apimachinery
// pkg/apis/meta/v1/validation ValidateDeleteOptions (422 `DeleteOptions.meta.k8s.io "" is invalid:
// …`). A protobuf body (client-go's typed clients: Helm's release Secrets) is read as the JSON it
// encodes. Deliberate difference: a number's text in a type error is JavaScript's (1e3 reads 1000).
import {
  newBadRequest,
  newInvalid,
  FieldPath,
  invalid,
  notSupported,
  type FieldError,
  GoJsonUnmarshalTypeError,
} from '../engine/http-face';
import { interpret } from './json-body';
import { protobufBody } from './lazy-protobuf-body';
import { validateDryRun } from './write-options';

/** metav1.DeleteOptions: the fields the delete path reads (null and absent are Go's nil). */
export interface DeleteOptions {
  gracePeriodSeconds?: number | null;
  preconditions?: { uid?: string | null; resourceVersion?: string | null } | null;
  orphanDependents?: boolean | null;
  propagationPolicy?: string | null;
  dryRun?: readonly string[] | null;
}

/** metav1.DeletePropagation* values. */
export const propagationOrphan = 'Orphan';
export const propagationBackground = 'Background';
export const propagationForeground = 'Foreground';

/** The DeleteOptions of a DELETE: its body when it has one, else its query. */
export function decodeDeleteOptions(
  body: Buffer,
  query: ReadonlyMap<string, readonly string[]>,
  contentType?: string,
): DeleteOptions {
  const options =
    body.length > 0 ? decodeBody(protobufAsJSON(body, contentType)) : decodeQuery(query);
  const errs = validateDeleteOptions(options);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return options;
}

/**
 * A protobuf body (NegotiateInputSerializer over the meta codecs, which know DeleteOptions in
 * every group version) as the JSON it encodes; any other body as it is.
 */
function protobufAsJSON(body: Buffer, contentType: string | undefined): Buffer {
  const mediaType = contentType?.split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/vnd.kubernetes.protobuf') return body;
  const { protobufBodyToObject, ProtobufDecodeError } = protobufBody();
  try {
    const o = protobufBodyToObject(
      body,
      { group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' },
      (gvk) => (gvk.kind === 'DeleteOptions' ? 'DeleteOptions' : undefined),
    );
    return Buffer.from(JSON.stringify(o));
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw newBadRequest(e.message);
    throw e;
  }
}

/**
 * The body as the meta codec decodes it into a DeleteOptions: SimpleMetaFactory.Interpret first
 * (syntax, a non-object, a non-string kind or apiVersion), then kjson's case-sensitive Unmarshal,
 * whose first type error is the 400 (`json: cannot unmarshal string into Go struct field
 * DeleteOptions.gracePeriodSeconds of type int64`); unknown fields are ignored, null is nil.
 */
function decodeBody(body: Buffer): DeleteOptions {
  try {
    interpret(body);
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
  const o = JSON.parse(body.toString('utf8')) as unknown;
  if (o === null) return {};
  const err = firstTypeError(
    o as Record<string, unknown>,
    deleteOptionsFields,
    'DeleteOptions',
    '',
  );
  if (err) throw newBadRequest(err.message);
  const options: DeleteOptions = {};
  const fields = o as Record<string, unknown>;
  for (const k of Object.keys(deleteOptionsFields))
    if (Object.hasOwn(fields, k) && fields[k] !== null)
      (options as Record<string, unknown>)[k] = fields[k];
  if (Array.isArray(options.dryRun)) options.dryRun = options.dryRun.map((v) => v ?? '');
  return options;
}

// A field's Go type as reflect prints it, and for a struct its own fields.
interface GoField {
  type: string;
  kind: 'string' | 'int64' | 'bool' | 'stringSlice' | 'struct';
  fields?: Readonly<Record<string, GoField>>;
}

const deleteOptionsFields: Readonly<Record<string, GoField>> = {
  gracePeriodSeconds: { type: 'int64', kind: 'int64' },
  preconditions: {
    type: 'v1.Preconditions',
    kind: 'struct',
    fields: {
      uid: { type: 'types.UID', kind: 'string' },
      resourceVersion: { type: 'string', kind: 'string' },
    },
  },
  orphanDependents: { type: 'bool', kind: 'bool' },
  propagationPolicy: { type: 'v1.DeletionPropagation', kind: 'string' },
  dryRun: { type: '[]string', kind: 'stringSlice' },
  ignoreStoreReadErrorWithClusterBreakingPotential: { type: 'bool', kind: 'bool' },
};

// The JSON value's kind as UnmarshalTypeError.Value names it.
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'number' ? 'number' : 'string';
}

// The first UnmarshalTypeError of `o` against `fields`, in document order (Go saves the first).
function firstTypeError(
  o: Record<string, unknown>,
  fields: Readonly<Record<string, GoField>>,
  struct: string,
  prefix: string,
): GoJsonUnmarshalTypeError | undefined {
  for (const [k, v] of Object.entries(o)) {
    const f = Object.hasOwn(fields, k) ? fields[k] : undefined;
    if (f === undefined || v === null) continue;
    const field = prefix + k;
    const wrong = (value: string, type = f.type): GoJsonUnmarshalTypeError =>
      new GoJsonUnmarshalTypeError(value, type, struct, field);
    switch (f.kind) {
      case 'string':
        if (typeof v !== 'string') return wrong(jsonKind(v));
        break;
      case 'bool':
        if (typeof v !== 'boolean') return wrong(jsonKind(v));
        break;
      case 'int64':
        if (typeof v !== 'number') return wrong(jsonKind(v));
        // strconv.ParseInt: a fraction, or a value beyond int64 (here: beyond exact integers).
        if (!Number.isSafeInteger(v)) return wrong(`number ${String(v)}`);
        break;
      case 'stringSlice':
        if (!Array.isArray(v)) return wrong(jsonKind(v));
        for (const e of v as unknown[])
          if (e !== null && typeof e !== 'string') return wrong(jsonKind(e), 'string');
        break;
      case 'struct': {
        if (typeof v !== 'object' || Array.isArray(v)) return wrong(jsonKind(v));
        const err = firstTypeError(
          v as Record<string, unknown>,
          f.fields ?? {},
          struct,
          field + '.',
        );
        if (err) return err;
        break;
      }
    }
  }
  return undefined;
}

// The ParameterCodec's conversions (runtime/conversion.go): strconv.ParseInt's message as Go prints it.
function decodeQuery(query: ReadonlyMap<string, readonly string[]>): DeleteOptions {
  const options: DeleteOptions = {};
  const first = (k: string): string | undefined => query.get(k)?.[0];
  const grace = first('gracePeriodSeconds');
  if (grace !== undefined) {
    if (!/^[+-]?\d+$/.test(grace))
      throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(grace)}: invalid syntax`);
    options.gracePeriodSeconds = Number(grace);
  }
  // Convert_Slice_string_To_Pointer_bool: "0" and "false" (any case) are false, anything else true.
  const orphan = first('orphanDependents');
  if (orphan !== undefined)
    options.orphanDependents = !(orphan === '0' || orphan.toLowerCase() === 'false');
  const policy = first('propagationPolicy');
  if (policy !== undefined) options.propagationPolicy = policy;
  const dryRun = query.get('dryRun');
  if (dryRun !== undefined) options.dryRun = dryRun;
  return options;
}

/** validation.ValidateDeleteOptions. */
export function validateDeleteOptions(options: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  const policy = options.propagationPolicy;
  const hasPolicy = policy !== undefined && policy !== null;
  if (options.orphanDependents !== undefined && options.orphanDependents !== null && hasPolicy)
    errs.push(
      invalid(
        FieldPath.of('propagationPolicy'),
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  if (
    hasPolicy &&
    policy !== propagationForeground &&
    policy !== propagationBackground &&
    policy !== propagationOrphan
  )
    errs.push(
      notSupported(FieldPath.of('propagationPolicy'), policy, [
        propagationForeground,
        propagationBackground,
        propagationOrphan,
        'nil',
      ]),
    );
  errs.push(...validateDryRun(FieldPath.of('dryRun'), options.dryRun ?? []));
  return errs;
}
