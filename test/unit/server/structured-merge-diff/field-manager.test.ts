// Tests for src/server/structured-merge-diff/field-manager/field-manager.ts: what
// `kubectl apply --server-side`, `kubectl create` / `edit` and Helm 4 do to a Deployment, checked
// against what kube-apiserver 1.36 answers (the managedFields entries byte for byte, the object,
// the 409 and 400 Status messages). The schema is deployment-schema.ts through schemaFromOpenAPI.
import * as assert from 'assert';
import * as yaml from 'js-yaml';
import type { StatusError } from '../../../../src/engine';
import {
  apply,
  update,
  type FieldManagerScope,
  type JsonObject,
} from '../../../../src/server/structured-merge-diff/field-manager/field-manager';
import type { ManagedFieldsEntry } from '../../../../src/server/structured-merge-diff/field-manager/managed-fields';
import { makePath } from '../../../../src/server/structured-merge-diff/path-element';
import { deducedParseableType } from '../../../../src/server/structured-merge-diff/schema';
import { FieldSet } from '../../../../src/server/structured-merge-diff/set';
import { TypeConverter } from '../../../../src/server/structured-merge-diff/schema-from-openapi';
import { deploymentModels } from './deployment-schema';

const converter = new TypeConverter(deploymentModels);
const scope: FieldManagerScope = {
  type: converter.typeFor('apps/v1', 'Deployment')!,
  apiVersion: 'apps/v1',
  kind: 'Deployment',
};
const t0 = Date.UTC(2026, 11, 7, 12, 0, 0);
const time = (step: number): string =>
  new Date(t0 + step * 1000).toISOString().replace('.000Z', 'Z');

type Step =
  | { apply: string; manager: string; force?: boolean; patch: string }
  | { create: string; manager: string; object: string }
  | { update: string; manager: string; object: string; subresource?: string };

/** [manager, operation, fieldsV1 JSON, subresource?, step of its time (null: no time)]. */
type Entry = [string, 'Apply' | 'Update', string, string?, (number | null)?];

interface Case {
  name: string;
  steps: Step[];
  /** The live object at the end, without metadata.managedFields (YAML). */
  object?: string;
  managed?: Entry[];
  /** The last step fails with this Status code and message. */
  error?: [number, string];
  /** The live object to start from (an object created before managedFields were tracked). */
  live?: string;
  scope?: FieldManagerScope;
}

const web = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: {app: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx:1
        args: [--a]
        ports:
        - containerPort: 80
`;
const webFields =
  '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:args":{},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}';
// An Update from the empty object: a map or list the write adds is itself a member (`".":{}`),
// unless the Go zero value already has it (spec, template; containers is null there).
const createFields = webFields
  .replaceAll('"f:labels":{"f:app":{}}', '"f:labels":{".":{},"f:app":{}}')
  .replace('"f:ports":{', '"f:ports":{".":{},');
const web3 = web.replace('replicas: 2', 'replicas: 3');
const header =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: default\n';

const cases: Case[] = [
  {
    name: 'kubectl apply --server-side creates a Deployment',
    steps: [{ apply: 'kubectl', manager: 'kubectl', patch: web }],
    object: web,
    managed: [['kubectl', 'Apply', webFields, undefined, 0]],
  },
  {
    name: 'a second applier changing a field the first owns conflicts',
    steps: [
      { apply: 'first', manager: 'kubectl', patch: web },
      { apply: 'second', manager: 'helm', patch: web3 },
    ],
    error: [409, 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas'],
  },
  {
    name: '--force-conflicts takes the field over',
    steps: [
      { apply: 'first', manager: 'kubectl', patch: web },
      { apply: 'second', manager: 'helm', force: true, patch: web3 },
    ],
    object: web3,
    managed: [
      ['kubectl', 'Apply', webFields.replace('"f:replicas":{},', ''), undefined, 0],
      ['helm', 'Apply', webFields, undefined, 1],
    ],
  },
  {
    name: 'an applier setting the same values shares them without conflict',
    steps: [
      { apply: 'first', manager: 'kubectl', patch: web },
      { apply: 'second', manager: 'helm', patch: web },
    ],
    object: web,
    // helm's apply changed nothing: its entry gets no time (managedFieldsUpdater.Apply) and sorts first.
    managed: [
      ['helm', 'Apply', webFields, undefined, null],
      ['kubectl', 'Apply', webFields, undefined, 0],
    ],
  },
  {
    name: 'kubectl create then apply: conflict with the Update manager names its version',
    steps: [
      { create: 'create', manager: 'kubectl-create', object: web },
      { apply: 'apply', manager: 'kubectl', patch: web3 },
    ],
    error: [
      409,
      'Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.replicas',
    ],
  },
  {
    name: 'kubectl create records an Update entry',
    steps: [{ create: 'create', manager: 'kubectl-create', object: web }],
    object: web,
    managed: [['kubectl-create', 'Update', createFields, undefined, 0]],
  },
  {
    name: 'two conflicts list each manager and field',
    steps: [
      { create: 'create', manager: 'kubectl-create', object: web },
      {
        update: 'edit',
        manager: 'kubectl-edit',
        object: web.replace('image: nginx:1', 'image: nginx:2'),
      },
      {
        apply: 'apply',
        manager: 'kubectl',
        patch: web3.replace('image: nginx:1', 'image: nginx:3'),
      },
    ],
    error: [
      409,
      'Apply failed with 2 conflicts: conflicts with "kubectl-create" using apps/v1:\n- .spec.replicas\nconflicts with "kubectl-edit" using apps/v1:\n- .spec.template.spec.containers[name="c"].image',
    ],
  },
  {
    name: 'an edit takes the field from the applier',
    steps: [
      { apply: 'apply', manager: 'kubectl', patch: web },
      {
        update: 'edit',
        manager: 'kubectl-edit',
        object: web.replace('image: nginx:1', 'image: nginx:2'),
      },
    ],
    object: web.replace('image: nginx:1', 'image: nginx:2'),
    managed: [
      ['kubectl', 'Apply', webFields.replace('"f:image":{},', ''), undefined, 0],
      [
        'kubectl-edit',
        'Update',
        '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{"f:image":{}}}}}}}',
        undefined,
        1,
      ],
    ],
  },
  {
    name: 'a label the applier stops applying is removed; one an updater owns stays',
    steps: [
      {
        apply: 'apply',
        manager: 'kubectl',
        patch: web.replace('labels: {app: web}\nspec', 'labels: {app: web, tier: fe}\nspec'),
      },
      {
        update: 'label',
        manager: 'kubectl-label',
        object: web.replace(
          'labels: {app: web}\nspec',
          'labels: {app: web, tier: fe, team: x}\nspec',
        ),
      },
      { apply: 'apply again', manager: 'kubectl', patch: web },
    ],
    object: web.replace('labels: {app: web}\nspec', 'labels: {app: web, team: x}\nspec'),
    managed: [
      ['kubectl', 'Apply', webFields, undefined, 2],
      ['kubectl-label', 'Update', '{"f:metadata":{"f:labels":{"f:team":{}}}}', undefined, 1],
    ],
  },
  {
    name: 'containers are a list-map: each applier owns its container; a dropped one goes',
    steps: [
      {
        apply: 'a',
        manager: 'a',
        patch:
          header +
          'spec:\n  template:\n    spec:\n      containers:\n      - {name: a, image: x}\n',
      },
      {
        apply: 'b',
        manager: 'b',
        patch:
          header +
          'spec:\n  template:\n    spec:\n      containers:\n      - {name: b, image: y}\n',
      },
      {
        apply: 'a again',
        manager: 'a',
        patch:
          header +
          'spec:\n  template:\n    spec:\n      containers:\n      - {name: a2, image: x}\n',
      },
    ],
    object:
      header +
      'spec:\n  template:\n    spec:\n      containers:\n      - {name: b, image: y}\n      - {name: a2, image: x}\n',
    managed: [
      [
        'b',
        'Apply',
        '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"b\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}',
        undefined,
        1,
      ],
      [
        'a',
        'Apply',
        '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"a2\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}',
        undefined,
        2,
      ],
    ],
  },
  {
    name: 'ports are keyed by containerPort and protocol (defaulted TCP)',
    steps: [
      {
        apply: 'a',
        manager: 'a',
        patch:
          header +
          'spec:\n  template:\n    spec:\n      containers:\n      - name: c\n        ports:\n        - {containerPort: 53}\n        - {containerPort: 53, protocol: UDP}\n',
      },
    ],
    managed: [
      [
        'a',
        'Apply',
        '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":53,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}},"k:{\\"containerPort\\":53,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}}}}}}}}',
        undefined,
        0,
      ],
    ],
  },
  {
    name: 'finalizers are a set: each applier owns its values',
    steps: [
      { apply: 'a', manager: 'a', patch: header + '  finalizers: [x]\n' },
      { apply: 'b', manager: 'b', patch: header + '  finalizers: [y]\n' },
    ],
    object: header + '  finalizers: [x, y]\n',
    managed: [
      ['a', 'Apply', '{"f:metadata":{"f:finalizers":{"v:\\"x\\"":{}}}}', undefined, 0],
      ['b', 'Apply', '{"f:metadata":{"f:finalizers":{"v:\\"y\\"":{}}}}', undefined, 1],
    ],
  },
  {
    name: 'dropping every finalizer and label the applier set removes the list and the map',
    steps: [
      { apply: 'a', manager: 'a', patch: header + '  labels: {app: web}\n  finalizers: [x]\n' },
      { apply: 'a again', manager: 'a', patch: header },
    ],
    object: header,
    managed: [],
  },
  {
    name: 'helm upgrade --server-side: a forced apply replaces values and drops what the chart no longer has',
    steps: [
      {
        apply: 'install',
        manager: 'helm',
        force: true,
        patch: web.replace(
          '        args: [--a]\n',
          '        args: [--a]\n        env:\n        - {name: A, value: "1"}\n        - {name: B, value: "2"}\n',
        ),
      },
      {
        update: 'scale',
        manager: 'kube-controller-manager',
        object: web
          .replace('replicas: 2', 'replicas: 4')
          .replace(
            '        args: [--a]\n',
            '        args: [--a]\n        env:\n        - {name: A, value: "1"}\n        - {name: B, value: "2"}\n',
          ),
      },
      {
        apply: 'upgrade',
        manager: 'helm',
        force: true,
        patch: web
          .replace('image: nginx:1', 'image: nginx:2')
          .replace(
            '        args: [--a]\n',
            '        args: [--a]\n        env:\n        - {name: A, value: "3"}\n',
          ),
      },
    ],
    object: web
      .replace('image: nginx:1', 'image: nginx:2')
      .replace(
        '        args: [--a]\n',
        '        args: [--a]\n        env:\n        - {name: A, value: "3"}\n',
      ),
    managed: [
      [
        'helm',
        'Apply',
        webFields.replace(
          '"f:args":{},',
          '"f:args":{},"f:env":{"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}}},',
        ),
        undefined,
        2,
      ],
    ],
  },
  {
    name: 'args are atomic: another applier changing them conflicts on the whole list',
    steps: [
      {
        apply: 'a',
        manager: 'a',
        patch:
          header +
          'spec:\n  template:\n    spec:\n      containers:\n      - {name: c, args: [--a]}\n',
      },
      {
        apply: 'b',
        manager: 'b',
        patch:
          header +
          'spec:\n  template:\n    spec:\n      containers:\n      - {name: c, args: [--a, --b]}\n',
      },
    ],
    error: [
      409,
      'Apply failed with 1 conflict: conflict with "a": .spec.template.spec.containers[name="c"].args',
    ],
  },
  {
    name: 'the selector is an atomic map',
    steps: [
      {
        apply: 'a',
        manager: 'a',
        patch: header + 'spec:\n  selector: {matchLabels: {app: web}}\n',
      },
      {
        apply: 'b',
        manager: 'b',
        patch: header + 'spec:\n  selector: {matchLabels: {tier: fe}}\n',
      },
    ],
    error: [409, 'Apply failed with 1 conflict: conflict with "a": .spec.selector'],
  },
  {
    name: 'a second identical apply changes nothing, not even the time',
    steps: [
      { apply: 'a', manager: 'kubectl', patch: web },
      { apply: 'a again', manager: 'kubectl', patch: web },
    ],
    object: web,
    managed: [['kubectl', 'Apply', webFields, undefined, 0]],
  },
  {
    name: 'fields that existed before the first apply belong to before-first-apply',
    live: web.replace('namespace: default', 'namespace: default\n  uid: 1b5c3c8e'),
    steps: [
      { apply: 'a', manager: 'kubectl', force: true, patch: header + 'spec:\n  replicas: 5\n' },
    ],
    object: web
      .replace('namespace: default', 'namespace: default\n  uid: 1b5c3c8e')
      .replace('replicas: 2', 'replicas: 5'),
    managed: [
      ['kubectl', 'Apply', '{"f:spec":{"f:replicas":{}}}', undefined, 0],
      ['before-first-apply', 'Update', createFields.replace('"f:replicas":{},', ''), undefined, 0],
    ],
  },
  {
    name: 'without force, before-first-apply conflicts',
    live: web.replace('namespace: default', 'namespace: default\n  uid: 1b5c3c8e'),
    steps: [{ apply: 'a', manager: 'kubectl', patch: header + 'spec:\n  replicas: 5\n' }],
    error: [
      409,
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    ],
  },
  {
    name: 'an update of an object nobody tracked stays untracked',
    live: web.replace('namespace: default', 'namespace: default\n  uid: 1b5c3c8e'),
    steps: [
      {
        update: 'put',
        manager: 'kubectl-edit',
        object: web3.replace('namespace: default', 'namespace: default\n  uid: 1b5c3c8e'),
      },
    ],
    object: web3.replace('namespace: default', 'namespace: default\n  uid: 1b5c3c8e'),
    managed: [],
  },
  {
    name: 'a status write is recorded with its subresource',
    steps: [
      { apply: 'a', manager: 'kubectl', patch: web },
      {
        update: 'status',
        manager: 'kube-controller-manager',
        subresource: 'status',
        object: web + 'status:\n  replicas: 2\n',
      },
    ],
    managed: [
      ['kubectl', 'Apply', webFields, undefined, 0],
      ['kube-controller-manager', 'Update', '{"f:status":{"f:replicas":{}}}', 'status', 1],
    ],
  },
  {
    name: 'reset fields are owned by nobody through that endpoint (status on the main resource)',
    scope: { ...scope, resetFields: FieldSet.of(makePath('status')) },
    steps: [
      {
        apply: 'a',
        manager: 'kubectl',
        patch: header + 'spec:\n  replicas: 1\nstatus:\n  replicas: 1\n',
      },
    ],
    object: header + 'spec:\n  replicas: 1\nstatus:\n  replicas: 1\n',
    managed: [['kubectl', 'Apply', '{"f:spec":{"f:replicas":{}}}', undefined, 0]],
  },
  {
    name: 'an apply through /status names its subresource',
    scope: { ...scope, subresource: 'status' },
    steps: [{ apply: 'a', manager: 'ctrl', patch: header + 'status:\n  readyReplicas: 1\n' }],
    managed: [['ctrl', 'Apply', '{"f:status":{"f:readyReplicas":{}}}', 'status', 0]],
  },
  {
    name: 'a patch of another kind is refused',
    steps: [
      {
        apply: 'a',
        manager: 'kubectl',
        patch: web.replace('kind: Deployment', 'kind: StatefulSet'),
      },
    ],
    error: [400, 'invalid object type: apps/v1, Kind=StatefulSet'],
  },
  {
    name: 'a patch of another version is refused',
    steps: [{ apply: 'a', manager: 'kubectl', patch: web.replace('apps/v1', 'apps/v1beta2') }],
    error: [400, 'invalid object type: apps/v1beta2, Kind=Deployment'],
  },
  {
    name: 'a patch carrying managedFields is refused',
    steps: [
      {
        apply: 'a',
        manager: 'kubectl',
        patch: web.replace('  labels:', '  managedFields: []\n  labels:'),
      },
    ],
    error: [400, 'metadata.managedFields must be nil'],
  },
  {
    name: 'a field the schema does not declare',
    steps: [
      {
        apply: 'a',
        manager: 'kubectl',
        patch: web.replace('replicas: 2', 'replicas: 2\n  foo: 1'),
      },
    ],
    error: [
      500,
      'Internal error occurred: failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.foo: field not declared in schema',
    ],
  },
  {
    name: 'duplicate containers in an apply patch',
    steps: [
      {
        apply: 'a',
        manager: 'kubectl',
        patch:
          header +
          'spec:\n  template:\n    spec:\n      containers:\n      - {name: c}\n      - {name: c}\n',
      },
    ],
    error: [
      500,
      'Internal error occurred: failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="c"]',
    ],
  },
  {
    name: 'a kind without schema merges as the deduced type: maps granular, lists atomic',
    scope: { type: deducedParseableType, apiVersion: 'example.com/v1', kind: 'Widget' },
    steps: [
      {
        apply: 'a',
        manager: 'a',
        patch:
          'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {a: 1, list: [1, 2]}\n',
      },
      {
        apply: 'b',
        manager: 'b',
        patch: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {b: 2}\n',
      },
    ],
    object:
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {a: 1, list: [1, 2], b: 2}\n',
    managed: [
      ['a', 'Apply', '{"f:spec":{".":{},"f:a":{},"f:list":{}}}', undefined, 0],
      ['b', 'Apply', '{"f:spec":{".":{},"f:b":{}}}', undefined, 1],
    ],
  },
];

const load = (s: string): JsonObject => yaml.load(s) as JsonObject;
const withoutManagedFields = (o: JsonObject): JsonObject => {
  const metadata = { ...(o.metadata as JsonObject) };
  delete metadata.managedFields;
  return { ...o, metadata };
};

describe('structured-merge-diff field manager (kubectl, Helm)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const s = c.scope ?? scope;
      let live: JsonObject | undefined = c.live ? load(c.live) : undefined;
      let failure: StatusError | undefined;
      c.steps.forEach((step, i) => {
        const now = t0 + i * 1000;
        try {
          if ('apply' in step)
            live = apply(live, load(step.patch), step.manager, step.force ?? false, s, now).object;
          else if ('create' in step)
            live = update(undefined, load(step.object), step.manager, s, now).object;
          else {
            const next = load(step.object);
            next.metadata = {
              ...(next.metadata as JsonObject),
              managedFields: (live?.metadata as JsonObject)?.managedFields ?? null,
            };
            if (next.metadata.managedFields === null) delete next.metadata.managedFields;
            const r = update(
              live,
              next,
              step.manager,
              { ...s, subresource: step.subresource },
              now,
            );
            assert.strictEqual(r.error, undefined);
            live = r.object;
          }
        } catch (e) {
          if (i !== c.steps.length - 1 || !c.error) throw e;
          failure = e as StatusError;
        }
      });
      if (c.error) {
        assert.ok(failure, 'the last step fails');
        assert.deepStrictEqual([failure.status.code, failure.status.message], c.error);
        return;
      }
      if (c.object) assert.deepStrictEqual(withoutManagedFields(live!), load(c.object));
      if (c.managed) {
        const got = ((live!.metadata as JsonObject).managedFields ?? []) as ManagedFieldsEntry[];
        const want = c.managed.map(([manager, operation, fields, subresource, step]) => ({
          manager,
          operation,
          apiVersion: s.apiVersion,
          ...(step === null ? {} : { time: time(step ?? 0) }),
          fieldsType: 'FieldsV1',
          fieldsV1: JSON.parse(fields) as unknown,
          ...(subresource ? { subresource } : {}),
        }));
        assert.deepStrictEqual(got, want);
        // Byte for byte: keys in the set's order, as kube-apiserver writes them.
        assert.deepStrictEqual(
          got.map((e) => JSON.stringify(e.fieldsV1)),
          c.managed.map(([, , fields]) => fields),
        );
      }
    });
  }

  it('Update managers past ten merge, oldest first, into ancient-changes', () => {
    let live = update(undefined, load(web), 'create', scope, t0).object;
    for (let i = 0; i < 11; i++) {
      const next = load(web);
      (next.metadata as JsonObject).labels = {
        ...((live.metadata as JsonObject).labels as JsonObject),
        [`l${i}`]: 'x',
      };
      (next.metadata as JsonObject).managedFields = (live.metadata as JsonObject).managedFields;
      live = update(live, next, `m${i}`, scope, t0 + (i + 1) * 1000).object;
    }
    const managers = ((live.metadata as JsonObject).managedFields as ManagedFieldsEntry[]).map(
      (e) => e.manager,
    );
    assert.deepStrictEqual(managers, [
      'ancient-changes',
      'm2',
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
      'm8',
      'm9',
      'm10',
    ]);
  });
});
