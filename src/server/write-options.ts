// Mirrors k8s.io/apimachinery pkg/apis/meta/v1/validation/validation.go (release-1.36)
// ValidateCreateOptions, ValidateUpdateOptions, ValidatePatchOptions, ValidateFieldManager,
// ValidateDryRun and ValidateFieldValidation, with the ParameterCodec's decoding of
// metav1.CreateOptions/UpdateOptions/PatchOptions from the query (zz_generated.conversion.go) and
// the handlers' 422 (create.go, update.go, patch.go: `CreateOptions.meta.k8s.io "" is invalid: …`).
import type { StatusError } from '../engine';
import {
  newInvalid,
  ErrorType,
  FieldError,
  FieldPath,
  forbidden,
  invalid,
  notSupported,
  isPrint,
  required,
} from '../engine/http-face';

/** types.ApplyYAMLPatchType: the patch type that takes `force` and needs a fieldManager. */
const applyPatchType = 'application/apply-patch+yaml';

/** metav1.CreateOptions / UpdateOptions / PatchOptions as the query decodes them. */
export interface WriteOptions {
  dryRun?: readonly string[];
  /** PatchOptions only (Convert_Slice_string_To_Pointer_bool: "0" and "false" are false). */
  force?: boolean;
  fieldManager?: string;
  fieldValidation?: string;
}

/** The options kind a handler validates: its name is the 422's kind. */
export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

/** validation.FieldManagerMaxLength. */
export const fieldManagerMaxLength = 128;

/** metav1.DryRunAll: the only dryRun value an apiserver accepts. */
const allowedDryRunValues = ['All'];

// sets.NewString(...).List(): sorted.
const allowedFieldValidationValues = ['', 'Ignore', 'Strict', 'Warn'];

/**
 * ParameterCodec.DecodeParameters of the query into the options of `kind` (first value of a
 * string, every value of dryRun; a present `force` is a bool that never fails to convert).
 */
export function decodeWriteOptions(
  query: ReadonlyMap<string, readonly string[]>,
  kind: WriteOptionsKind,
): WriteOptions {
  const options: WriteOptions = {};
  const dryRun = query.get('dryRun');
  if (dryRun !== undefined && dryRun.length > 0) options.dryRun = dryRun;
  const force = query.get('force')?.[0];
  if (kind === 'PatchOptions' && force !== undefined)
    options.force = !(force === '0' || force.toLowerCase() === 'false');
  const fieldManager = query.get('fieldManager')?.[0];
  if (fieldManager !== undefined) options.fieldManager = fieldManager;
  const fieldValidation = query.get('fieldValidation')?.[0];
  if (fieldValidation !== undefined) options.fieldValidation = fieldValidation;
  return options;
}

/** validation.ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(fieldManager: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const encoder = new TextEncoder();
  if (encoder.encode(fieldManager).length > fieldManagerMaxLength)
    errs.push(
      new FieldError(
        ErrorType.TooLong,
        path.toString(),
        '<value omitted>',
        `may not be more than ${fieldManagerMaxLength} bytes`,
      ),
    );
  // Go ranges over the string's bytes: the position is a byte offset.
  let position = 0;
  for (const r of fieldManager) {
    if (!isPrint(r)) {
      const u = `U+${(r.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(invalid(path, fieldManager, `invalid character ${u} (at position ${position})`));
    }
    position += encoder.encode(r).length;
  }
  return errs;
}

/** validation.ValidateDryRun: every value is "All" (no values is no dry run). */
export function validateDryRun(path: FieldPath, dryRun: readonly string[]): FieldError[] {
  return dryRun.every((v) => allowedDryRunValues.includes(v))
    ? []
    : [notSupported(path, dryRun, allowedDryRunValues)];
}

/** validation.ValidateFieldValidation. */
export function validateFieldValidation(path: FieldPath, fieldValidation: string): FieldError[] {
  return allowedFieldValidationValues.includes(fieldValidation)
    ? []
    : [notSupported(path, fieldValidation, allowedFieldValidationValues)];
}

/**
 * ValidateCreateOptions, ValidateUpdateOptions or ValidatePatchOptions (`patchType`: the PATCH's
 * content type; `force` is for apply only, and apply needs a fieldManager), as the handler's 422;
 * undefined when valid.
 */
export function validateWriteOptions(
  options: WriteOptions,
  kind: WriteOptionsKind,
  patchType = '',
): StatusError | undefined {
  const errs: FieldError[] = [];
  if (kind === 'PatchOptions') {
    if (patchType !== applyPatchType) {
      if (options.force !== undefined)
        errs.push(forbidden(FieldPath.of('force'), 'may not be specified for non-apply patch'));
    } else if ((options.fieldManager ?? '') === '')
      // kubectl defaults it; controllers have to set it.
      errs.push(required(FieldPath.of('fieldManager'), 'is required for apply patch'));
  }
  errs.push(...validateFieldManager(options.fieldManager ?? '', FieldPath.of('fieldManager')));
  errs.push(...validateDryRun(FieldPath.of('dryRun'), options.dryRun ?? []));
  errs.push(
    ...validateFieldValidation(FieldPath.of('fieldValidation'), options.fieldValidation ?? ''),
  );
  return errs.length > 0 ? newInvalid({ group: 'meta.k8s.io', kind }, '', errs) : undefined;
}

/**
 * The handler's options step: decode the query, answer the 422 when invalid. What the registry
 * needs of them is whether to write (dryrun.IsDryRun).
 */
export function writeOptionsOf(
  query: ReadonlyMap<string, readonly string[]>,
  kind: WriteOptionsKind,
  patchType = '',
): WriteOptions {
  const options = decodeWriteOptions(query, kind);
  const err = validateWriteOptions(options, kind, patchType);
  if (err) throw err;
  return options;
}
