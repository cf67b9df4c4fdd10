// No upstream counterpart as a file: the discovery check of `listwatch conform`, which also finds
// what the other checks need of a resource: its group version (the group's preferred version),
// kind and scope, from /api, /api/v1, /apis and /apis/<group>/<version> as kubectl reads them.
import { resultOf, checkId, type CheckDefinition, type CheckResult } from './conform-check';
import type { ConformHttp } from './conform-http';
import { answerText, parseJSON, type ConformResource } from './conform-scope';

const discovery: CheckDefinition = {
  id: 'discovery.resource',
  title: "the resource in its group version's discovery, with the verbs list and watch",
  rule: 'staging/src/k8s.io/apiserver/pkg/endpoints/discovery/version.go ServeHTTP; staging/src/k8s.io/apiserver/pkg/endpoints/installer.go registerResourceHandlers',
  impact:
    'kubectl, dynamic and metadata informers find a resource and its verbs through discovery: without it they answer "the server doesn\'t have a resource type" or "the server could not find the requested resource", and controllers that watch it (garbage collector, quota) skip or stall.',
};

export const discoveryCheckDefinitions = [discovery];

/** `pods` → ('', 'pods'); `deployments.apps` → ('apps', 'deployments'). */
export function splitResourceName(name: string): { group: string; plural: string } {
  const dot = name.indexOf('.');
  return dot < 0
    ? { group: '', plural: name }
    : { group: name.slice(dot + 1), plural: name.slice(0, dot) };
}

/** The discovery check of `name`, and the resource when discovery serves it with list and watch. */
export async function checkDiscovery(
  http: ConformHttp,
  name: string,
  several: boolean,
): Promise<{ result: CheckResult; resource?: ConformResource }> {
  const d = { ...discovery, id: checkId(discovery.id, name, several) };
  const { group, plural } = splitResourceName(name);
  const expected = `${name} in ${group === '' ? '/api/v1' : `/apis/${group}/<preferred version>`} with verbs list and watch`;
  let version = 'v1';
  if (group !== '') {
    const a = await http.request('GET', '/apis');
    const list = parseJSON(a.body);
    const groups = Array.isArray(list?.groups)
      ? (list.groups as { name?: string; preferredVersion?: { version?: string } }[])
      : [];
    const g = groups.find((x) => x.name === group);
    if (a.status !== 200 || !g?.preferredVersion?.version)
      return {
        result: resultOf(
          d,
          'fail',
          expected,
          a.status !== 200 ? `GET /apis: ${answerText(a)}` : `no group ${group} in /apis`,
        ),
      };
    version = g.preferredVersion.version;
  }
  const path = group === '' ? '/api/v1' : `/apis/${group}/${version}`;
  const a = await http.request('GET', path);
  const rl = parseJSON(a.body);
  if (a.status !== 200 || !Array.isArray(rl?.resources))
    return { result: resultOf(d, 'fail', expected, `GET ${path}: ${answerText(a)}`) };
  const r = (
    rl.resources as { name?: string; kind?: string; namespaced?: boolean; verbs?: unknown }[]
  ).find((x) => x.name === plural);
  if (!r) return { result: resultOf(d, 'fail', expected, `GET ${path}: no resource ${plural}`) };
  const verbs = Array.isArray(r.verbs) ? (r.verbs as string[]) : [];
  const got = `${path}: ${plural} (kind ${String(r.kind)}, ${r.namespaced ? 'namespaced' : 'cluster-scoped'}), verbs ${verbs.join(', ') || 'none'}`;
  if (!verbs.includes('list') || !verbs.includes('watch') || typeof r.kind !== 'string')
    return { result: resultOf(d, 'fail', expected, got) };
  return {
    result: resultOf(d, 'pass', expected, got),
    resource: { name, group, version, plural, kind: r.kind, namespaced: r.namespaced === true },
  };
}
