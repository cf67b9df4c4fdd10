// The public surface of the server-side apply library (sigs.k8s.io/structured-merge-diff plus the
// apiserver's field manager, pure TypeScript over plain JSON): what a PATCH handler with
// application/apply-patch+yaml and the create/update/patch paths call. Everything else is reached
// by path from tests only.
export {
  apply,
  update,
  beforeApplyManagerName,
  defaultMaxUpdateManagers,
  type FieldManagerResult,
  type FieldManagerScope,
  type JsonObject,
} from './field-manager/field-manager';
export { newConflictError, causeTypeFieldManagerConflict } from './field-manager/conflict';
export {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
} from './field-manager/managed-fields';
export { deducedParseableType, type ParseableType, type Schema } from './schema';
export {
  schemaFromOpenAPI,
  SchemaConversionError,
  TypeConverter,
  type OpenAPISchema,
} from './schema-from-openapi';
export { ScaleHandler, type ResourcePathMappings } from './field-manager/scale-handler';
export { FieldSet } from './set';
export { makePath, pathString, type Path, type PathElement } from './path-element';
export { setFromFieldsV1, setToFieldsV1, setToJSON } from './fields-v1';
