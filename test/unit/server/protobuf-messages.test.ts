// protobuf-messages.ts: the field table is whole (every type it names is a scalar or one of its
// messages, numbers and JSON names are unique in a message, protobufjs resolves every Type built
// from it) and covers the kinds kubectl 1.35's typed commands send.
import * as assert from 'assert';
import { protobufKinds, protobufMessages } from '../../../src/server/protobuf-messages';
import { protobufMessageSpecs } from '../../../src/server/protobuf-body';
import { protobufRoot } from './protobuf-types';

const scalars = new Set(['string', 'bool', 'int32', 'int64', 'bytes']);

describe('protobufMessages', () => {
  const specs = protobufMessageSpecs();

  for (const [name, spec] of specs)
    it(`${name}: field types resolve, numbers and JSON names are unique`, () => {
      for (const f of spec.fields) {
        assert.ok(Number.isInteger(f.num) && f.num > 0, `${name} field ${f.num}`);
        assert.ok(
          scalars.has(f.base) || specs.has(f.base),
          `${name}.${f.json}: type ${f.base} is neither a scalar nor a message of the table`,
        );
        assert.ok(!f.inline || !scalars.has(f.base), `${name}: inline ${f.base} is not a message`);
      }
      const nums = spec.fields.map((f) => f.num);
      assert.strictEqual(new Set(nums).size, nums.length, `${name}: a field number twice`);
      const names = spec.fields.filter((f) => !f.inline).map((f) => f.json);
      assert.strictEqual(new Set(names).size, names.length, `${name}: a JSON name twice`);
    });

  it('every message is reachable from a kind (no dead rows)', () => {
    const seen = new Set<string>();
    const visit = (name: string): void => {
      if (seen.has(name)) return;
      seen.add(name);
      for (const f of specs.get(name)?.fields ?? []) if (!scalars.has(f.base)) visit(f.base);
    };
    for (const m of Object.values(protobufKinds)) visit(m);
    assert.deepStrictEqual(
      Object.keys(protobufMessages).filter((m) => !seen.has(m)),
      [],
    );
  });

  it('protobufjs resolves every Type built from the table', () => {
    const root = protobufRoot();
    for (const name of Object.keys(protobufMessages)) assert.ok(root.lookupType(name), name);
  });

  // `kubectl create --help` (1.35): each typed command's kind, plus create token and auth can-i.
  const kubectlKinds: [command: string, gvk: string][] = [
    ['clusterrole', 'rbac.authorization.k8s.io/v1/ClusterRole'],
    ['clusterrolebinding', 'rbac.authorization.k8s.io/v1/ClusterRoleBinding'],
    ['configmap', '/v1/ConfigMap'],
    ['cronjob', 'batch/v1/CronJob'],
    ['deployment', 'apps/v1/Deployment'],
    ['ingress', 'networking.k8s.io/v1/Ingress'],
    ['job', 'batch/v1/Job'],
    ['namespace', '/v1/Namespace'],
    ['poddisruptionbudget', 'policy/v1/PodDisruptionBudget'],
    ['priorityclass', 'scheduling.k8s.io/v1/PriorityClass'],
    ['quota', '/v1/ResourceQuota'],
    ['role', 'rbac.authorization.k8s.io/v1/Role'],
    ['rolebinding', 'rbac.authorization.k8s.io/v1/RoleBinding'],
    ['secret', '/v1/Secret'],
    ['service', '/v1/Service'],
    ['serviceaccount', '/v1/ServiceAccount'],
    ['token', 'authentication.k8s.io/v1/TokenRequest'],
    ['auth can-i', 'authorization.k8s.io/v1/SelfSubjectAccessReview'],
    ['auth can-i --list', 'authorization.k8s.io/v1/SelfSubjectRulesReview'],
  ];
  for (const [command, gvk] of kubectlKinds)
    it(`kubectl ${command}: ${gvk} has a message`, () => {
      assert.ok(specs.has(protobufKinds[gvk]), gvk);
    });
});
