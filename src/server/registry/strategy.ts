// Mirrors k8s.io/apiserver pkg/registry/rest/{create.go,update.go,delete.go,resetfields.go}
// (release-1.36): what a kind decides when the registry's Store writes it (RESTCreateStrategy,
// RESTUpdateStrategy, RESTDeleteStrategy's graceful part, ResetFieldsStrategy), one object per kind
// (<kind>-strategy.ts). Deliberate differences: NamespaceScoped, AllowCreateOnUpdate and
// AllowUnconditionalUpdate are fields (no context to read); ObjectKinds is groupKind, the one kind
// errors.NewInvalid names; ResetFields paths are plain field paths per API version.
import type { KubeObject } from '../../engine';
import type { FieldError } from '../../engine/http-face';
import type { DeleteOptions } from '../delete-options';

/** GetResetFields: per API version (`v1`, `apps/v1`), the field paths a write through it resets. */
export type ResetFields = Readonly<Record<string, ReadonlyArray<readonly string[]>>>;

/** rest.RESTCreateStrategy with rest.RESTUpdateStrategy: one kind's rules for the Store. */
export interface ObjectStrategy {
  /**
   * The kind errors.NewInvalid names (`Pod`, `Widget.example.com`): the object's own for a custom
   * resource (its typer reads the unstructured object's apiVersion and kind).
   */
  groupKind(obj: KubeObject): { group: string; kind: string };
  /** NamespaceScoped. */
  namespaceScoped: boolean;
  /** AllowCreateOnUpdate: a PUT of a missing object creates it. */
  allowCreateOnUpdate: boolean;
  /** AllowUnconditionalUpdate: an update without resourceVersion overwrites the latest. */
  allowUnconditionalUpdate: boolean;
  /** PrepareForCreate: clear what a client may not set (status, generation) before validation. */
  prepareForCreate(obj: KubeObject): void;
  /** PrepareForUpdate: keep what this path may not change (status on the main resource). */
  prepareForUpdate(obj: KubeObject, old: KubeObject): void;
  /** Validate: the kind's rules, its name rule included. */
  validate(obj: KubeObject): FieldError[];
  /** ValidateUpdate beyond rest's common metadata checks. */
  validateUpdate(obj: KubeObject, old: KubeObject): FieldError[];
  /**
   * The `/status` strategy's ValidateUpdate, for kinds whose status strategy validates the status
   * itself (a Service's load balancer); without it the main ValidateUpdate runs.
   */
  validateStatusUpdate?(obj: KubeObject, old: KubeObject): FieldError[];
  /** WarningsOnCreate: the Warning headers a valid create earns (deprecated fields, …). */
  warningsOnCreate(obj: KubeObject): string[];
  /** WarningsOnUpdate. */
  warningsOnUpdate(obj: KubeObject, old: KubeObject): string[];
  /** Canonicalize: the normal form stored after create and every update. */
  canonicalize(obj: KubeObject): void;
  /** ResetFieldsStrategy.GetResetFields: what this path leaves to another (status, or spec). */
  resetFields(): ResetFields;
  /**
   * RESTGracefulDeleteStrategy.CheckGracefulDelete, for kinds deleted gracefully (pods): true when
   * the delete is graceful, with the period written into the options.
   */
  checkGracefulDelete?(obj: KubeObject, options: DeleteOptions): boolean;
}

type Loose = Record<string, unknown>;

/** apiequality.Semantic.DeepEqual for JSON values (key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  // Own keys only: b's inherited `__proto__` or `constructor` is no key of b.
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Loose)[k], (b as Loose)[k]));
}

/** A strategy's groupKind for a built-in: always its own kind. */
export const fixedKind = (group: string, kind: string) => (): { group: string; kind: string } => ({
  group,
  kind,
});

/** The strategy methods most kinds leave at upstream's defaults (no warnings, no canonical form). */
export const strategyDefaults: Pick<
  ObjectStrategy,
  'allowCreateOnUpdate' | 'warningsOnCreate' | 'warningsOnUpdate' | 'canonicalize'
> = {
  allowCreateOnUpdate: false,
  warningsOnCreate: () => [],
  warningsOnUpdate: () => [],
  canonicalize() {},
};

/** `apps/v1` or `v1`, the key of ResetFields. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** The spec of an object (undefined when it has none). */
export function specOf(obj: KubeObject): unknown {
  return (obj as unknown as Loose).spec;
}

/**
 * PrepareForUpdate's generation rule of the kinds with a spec (`if !Semantic.DeepEqual(new.Spec,
 * old.Spec) { new.Generation = old.Generation + 1 }`); `alsoAnnotations` for a Deployment, whose
 * annotations are copied to its ReplicaSets.
 */
export function bumpGenerationOnSpecChange(
  obj: KubeObject,
  old: KubeObject,
  alsoAnnotations = false,
): void {
  const changed =
    !deepEqual(specOf(obj) ?? null, specOf(old) ?? null) ||
    (alsoAnnotations &&
      !deepEqual(obj.metadata.annotations ?? null, old.metadata.annotations ?? null));
  if (changed) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
}
