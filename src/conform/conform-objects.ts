// No upstream counterpart: the objects the battery writes (only kinds with a template that any
// apiserver accepts as is: ConfigMaps and Secrets), always in its namespace and labelled with its
// run, and the namespace it creates and deletes.
import type { HttpAnswer } from './conform-http';
import { objectPath, listPath, type ConformScope, type ConformResource } from './conform-scope';

/** The label key on every object the battery writes; its value is the run's id. */
export const runLabelKey = 'listwatch-conform';

/** The resources the battery can write, and the body of one of their objects. */
const templates: Record<
  string,
  (name: string, labels: Record<string, string>, n: number) => unknown
> = {
  configmaps: (name, labels, n) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels },
    data: { n: String(n) },
  }),
  secrets: (name, labels, n) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, labels },
    stringData: { n: String(n) },
  }),
};

/** Why the battery cannot write objects of `r` (undefined: it can). */
export function whyNotWritable(r: ConformResource): string | undefined {
  if (r.group === '' && r.namespaced && templates[r.plural]) return undefined;
  return `writes only configmaps and secrets (no object of ${r.name} it could write on any server)`;
}

function body(s: ConformScope, name: string, n: number, extra: Record<string, string>): unknown {
  return templates[s.resource.plural](name, { [runLabelKey]: s.runLabel, ...extra }, n);
}

export async function createObject(
  s: ConformScope,
  name: string,
  n = 0,
  labels: Record<string, string> = {},
): Promise<HttpAnswer> {
  const a = await s.http.request('POST', listPath(s), { body: body(s, name, n, labels) });
  if (a.status === 201) s.created.add(name);
  return a;
}

/** A PUT of the object with `n` changed (a MODIFIED event), from its last read `resourceVersion`. */
export function updateObject(
  s: ConformScope,
  name: string,
  n: number,
  resourceVersion: string,
): Promise<HttpAnswer> {
  const b = body(s, name, n, {}) as { metadata: Record<string, unknown> };
  b.metadata.resourceVersion = resourceVersion;
  return s.http.request('PUT', objectPath(s, name), { body: b });
}

export async function deleteObject(s: ConformScope, name: string): Promise<HttpAnswer> {
  const a = await s.http.request('DELETE', objectPath(s, name));
  if (a.status === 200 || a.status === 404) s.created.delete(name);
  return a;
}

/** A namespace name of this run: `listwatch-conform-<random>`. */
export function runNamespaceName(runId: string): string {
  return `listwatch-conform-${runId}`;
}
