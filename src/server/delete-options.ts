// Mirrors k8s.io/apiserver pkg/endpoints/handlers/delete.go (release-1.36) DeleteResource's
// options: a metav1.DeleteOptions body, else the query parameters (ParameterCodec), then
// apimachinery pkg/apis/meta/v1/validation ValidateDeleteOptions (422 `DeleteOptions.meta.k8s.io ""
// is invalid: …`). Deliberate difference: a body is JSON only (no protobuf DeleteOptions).
import { newBadRequest, newInvalid } from '../engine/storage/errors';
import { FieldPath, invalid, notSupported, type FieldError } from '../engine/storage/field-errors';
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
): DeleteOptions {
  const options = body.length > 0 ? decodeBody(body) : decodeQuery(query);
  const errs = validateDeleteOptions(options);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return options;
}

function decodeBody(body: Buffer): DeleteOptions {
  let o: unknown;
  try {
    o = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o))
    throw newBadRequest('decoded object cannot be converted to DeleteOptions');
  return o as DeleteOptions;
}

// The ParameterCodec's conversions: strconv.ParseInt and ParseBool messages, as Go prints them.
function decodeQuery(query: ReadonlyMap<string, readonly string[]>): DeleteOptions {
  const options: DeleteOptions = {};
  const first = (k: string): string | undefined => query.get(k)?.[0];
  const grace = first('gracePeriodSeconds');
  if (grace !== undefined) {
    if (!/^[+-]?\d+$/.test(grace))
      throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(grace)}: invalid syntax`);
    options.gracePeriodSeconds = Number(grace);
  }
  const orphan = first('orphanDependents');
  if (orphan !== undefined) {
    const truthy = ['1', 't', 'T', 'true', 'TRUE', 'True'];
    const falsy = ['0', 'f', 'F', 'false', 'FALSE', 'False'];
    if (!truthy.includes(orphan) && !falsy.includes(orphan))
      throw newBadRequest(`strconv.ParseBool: parsing ${JSON.stringify(orphan)}: invalid syntax`);
    options.orphanDependents = truthy.includes(orphan);
  }
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
