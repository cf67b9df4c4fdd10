// Tests for src/server/openapi.ts, openapi-definitions.ts and openapi-v2-protobuf.ts: the
// documents kubectl reads (v3 index and group-version documents for explain and the
// fieldValidation check, v2 JSON and protobuf for older kubectl), and kube-openapi's answers to
// Accept, hashes and ETags.
import * as assert from 'assert';
import { createHash } from 'crypto';
import { serveOpenAPI, type OpenAPIRequest } from '../../../src/server/openapi';
import type { ServedResource } from '../../../src/server/served-resource';
import { builtIns, crontabs, pods, served } from './fixtures';

const crd: ServedResource = {
  ...crontabs,
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' } } } },
  },
};
const all = [...builtIns, crd];
const now = Date.UTC(2026, 11, 1, 12, 0, 0);
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function get(
  path: string,
  o: Partial<OpenAPIRequest> = {},
  resources: readonly ServedResource[] = all,
) {
  const [p, q = ''] = path.split('?');
  const r = serveOpenAPI({ path: p, query: new URLSearchParams(q), ...o }, resources, {
    gitVersion: 'v1.36.0',
    now,
  });
  assert.ok(r, `${path} is an OpenAPI path`);
  return r;
}

const json = (body: string | Uint8Array): Doc => JSON.parse(body as string);

/** Every $ref of a document names one of its definitions. */
function assertRefsResolve(doc: Doc, prefix: string, definitions: Doc): void {
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object')
      for (const [k, v] of Object.entries(n)) {
        // JSONSchemaProps has a property named $ref: only a string is a reference.
        if (k === '$ref' && typeof v === 'string') {
          assert.ok((v as string).startsWith(prefix), v as string);
          assert.ok(definitions[(v as string).slice(prefix.length)], `${v} resolves`);
        } else walk(v);
      }
  };
  walk(doc);
}

/** The length-delimited fields of a protobuf message (enough to read strings and submessages). */
function fields(buf: Uint8Array): [number, Uint8Array | number][] {
  const out: [number, Uint8Array | number][] = [];
  let i = 0;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      const b = buf[i++];
      v += (b & 0x7f) * mul;
      mul *= 128;
      if (b < 0x80) return v;
    }
  };
  while (i < buf.length) {
    const key = varint();
    if ((key & 7) === 2) {
      const n = varint();
      out.push([key >> 3, buf.subarray(i, i + n)]);
      i += n;
    } else out.push([key >> 3, varint()]);
  }
  return out;
}
const text = (b: Uint8Array | number): string => new TextDecoder().decode(b as Uint8Array);

describe('server/openapi', () => {
  describe('/openapi/v3', () => {
    it('indexes each group version at a URL carrying its document hash', () => {
      const index = json(get('/openapi/v3').body);
      assert.deepStrictEqual(Object.keys(index.paths), ['api/v1', 'apis/stable.example.com/v1']);
      for (const [key, { serverRelativeURL }] of Object.entries(index.paths) as [string, Doc][]) {
        const doc = get(`/openapi/v3/${key}`).body as string;
        const hash = createHash('sha512').update(doc).digest('hex').toUpperCase();
        assert.strictEqual(serverRelativeURL, `/openapi/v3/${key}?hash=${hash}`);
      }
    });

    it('api/v1 has Pod with its group-version-kind and strategic-merge keys, every ref resolving', () => {
      const doc = json(get('/openapi/v3/api/v1').body);
      assert.strictEqual(doc.openapi, '3.0.0');
      const schemas = doc.components.schemas;
      assert.deepStrictEqual(schemas['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind'], [
        { group: '', kind: 'Pod', version: 'v1' },
      ]);
      const containers = schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
      assert.strictEqual(containers['x-kubernetes-patch-merge-key'], 'name');
      assert.strictEqual(containers['x-kubernetes-patch-strategy'], 'merge');
      assert.deepStrictEqual(
        containers.items.$ref,
        '#/components/schemas/io.k8s.api.core.v1.Container',
      );
      assert.ok(schemas['io.k8s.api.core.v1.ConfigMap'] && schemas['io.k8s.api.core.v1.Namespace']);
      assert.strictEqual(
        schemas['com.example.stable.v1.CronTab'],
        undefined,
        'a CR is in its own group version',
      );
      assertRefsResolve(doc, '#/components/schemas/', schemas);
    });

    it('has every PodSpec field of the package, in name order, with its merge keys', () => {
      const spec = json(get('/openapi/v3/api/v1').body).components.schemas[
        'io.k8s.api.core.v1.PodSpec'
      ];
      const names = Object.keys(spec.properties);
      assert.deepStrictEqual(names, [...names].sort());
      for (const f of ['affinity', 'securityContext', 'tolerations', 'volumes', 'dnsPolicy'])
        assert.ok(names.includes(f), f);
      assert.deepStrictEqual(spec.properties.affinity, {
        $ref: '#/components/schemas/io.k8s.api.core.v1.Affinity',
      });
      assert.strictEqual(spec.properties.volumes['x-kubernetes-patch-merge-key'], 'name');
      assert.strictEqual(
        spec.properties.volumes['x-kubernetes-patch-strategy'],
        'merge,retainKeys',
      );
    });

    it('offers fieldValidation on each PATCH, tagged with its kind (QueryParamVerifierV3)', () => {
      const paths = json(get('/openapi/v3/api/v1').body).paths;
      const patch = paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
      assert.strictEqual(patch.operationId, 'patchCoreV1NamespacedPod');
      assert.deepStrictEqual(patch['x-kubernetes-group-version-kind'], {
        group: '',
        kind: 'Pod',
        version: 'v1',
      });
      assert.ok(
        patch.parameters.some((p: Doc) => p.name === 'fieldValidation' && p.in === 'query'),
      );
      assert.strictEqual(
        paths['/api/v1/namespaces/{name}'].patch.operationId,
        'patchCoreV1Namespace',
      );
      assert.strictEqual(paths['/api/v1/pods'].get.operationId, 'listCoreV1PodForAllNamespaces');
      assert.strictEqual(
        paths['/api/v1/namespaces'].delete,
        undefined,
        'namespaces have no deletecollection',
      );
    });

    it("builds a CR's definition from its manifest schema, with apiVersion, kind and metadata", () => {
      const doc = json(get('/openapi/v3/apis/stable.example.com/v1').body);
      const s = doc.components.schemas['com.example.stable.v1.CronTab'];
      assert.deepStrictEqual(Object.keys(s.properties), ['spec', 'apiVersion', 'kind', 'metadata']);
      assert.deepStrictEqual(s.properties.spec, {
        type: 'object',
        properties: { cronSpec: { type: 'string' } },
      });
      assert.deepStrictEqual(s['x-kubernetes-group-version-kind'], [
        { group: 'stable.example.com', kind: 'CronTab', version: 'v1' },
      ]);
      assert.ok(
        doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'].patch,
      );
      assertRefsResolve(doc, '#/components/schemas/', doc.components.schemas);
    });

    it('serves the current hash immutable for a year and redirects an old one', () => {
      const url = json(get('/openapi/v3').body).paths['api/v1'].serverRelativeURL as string;
      const r = get(url);
      assert.strictEqual(r.status, 200);
      assert.strictEqual(r.headers['Cache-Control'], 'public, immutable');
      assert.strictEqual(r.headers.Expires, 'Wed, 01 Dec 2027 12:00:00 GMT');
      assert.strictEqual(r.headers.Vary, 'Accept');
      const old = get('/openapi/v3/api/v1?hash=0123');
      assert.strictEqual(old.status, 301);
      assert.strictEqual(old.headers.Location, url);
      assert.strictEqual(get('/openapi/v3/api/v1').headers['Cache-Control'], undefined);
    });

    it('answers 406 with no body for a protobuf-only Accept, 304 for the current ETag', () => {
      assert.deepStrictEqual(
        get('/openapi/v3/api/v1', {
          accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf',
        }),
        { status: 406, headers: { Vary: 'Accept' }, body: '' },
      );
      const etag = get('/openapi/v3/api/v1').headers.Etag;
      assert.strictEqual(get('/openapi/v3/api/v1', { ifNoneMatch: etag }).status, 304);
    });

    for (const path of [
      '/openapi/v3/apis/apps/v1',
      '/openapi/v3/api/v2',
      '/openapi/v4',
      '/openapi',
    ]) {
      it(`leaves ${path} to the caller`, () => {
        assert.strictEqual(
          serveOpenAPI({ path, query: new URLSearchParams() }, all, { gitVersion: 'v1.36.0', now }),
          undefined,
        );
      });
    }
  });

  describe('/openapi/v2', () => {
    it('is JSON by default: swagger 2.0, every served path and resolving refs', () => {
      const r = get('/openapi/v2', { accept: 'application/json, */*' });
      assert.strictEqual(r.headers['Content-Type'], 'application/json');
      const doc = json(r.body);
      assert.strictEqual(doc.swagger, '2.0');
      assert.strictEqual(doc.info.version, 'v1.36.0');
      assert.ok(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs']);
      assert.deepStrictEqual(
        doc.definitions['io.k8s.api.core.v1.Container'].properties.env[
          'x-kubernetes-patch-merge-key'
        ],
        'name',
      );
      assertRefsResolve(doc, '#/definitions/', doc.definitions);
    });

    it("is gnostic's protobuf Document for the Accept kubectl 1.20 sends", () => {
      const r = get('/openapi/v2', {
        accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      });
      assert.strictEqual(
        r.headers['Content-Type'],
        'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      );
      assert.ok(r.body instanceof Uint8Array);
      const doc = fields(r.body);
      assert.deepStrictEqual(
        doc.map(([f]) => f),
        [1, 2, 8, 9],
      );
      assert.strictEqual(text(doc[0][1]), '2.0');
      const definitions = fields(doc[3][1] as Uint8Array).map(([, named]) =>
        text(fields(named as Uint8Array)[0][1]),
      );
      assert.deepStrictEqual(definitions, Object.keys(json(get('/openapi/v2').body).definitions));
      // Pod's vendor extension (Schema field 31) carries its group-version-kind as Any.yaml.
      const pod = fields(doc[3][1] as Uint8Array)
        .map(([, n]) => fields(n as Uint8Array))
        .find((n) => text(n[0][1]) === 'io.k8s.api.core.v1.Pod');
      const ext = fields(pod![1][1] as Uint8Array)
        .filter(([f]) => f === 31)
        .map(([, n]) => fields(n as Uint8Array));
      assert.deepStrictEqual(
        ext.map((e) => [text(e[0][1]), text(fields(e[1][1] as Uint8Array)[0][1])]),
        [['x-kubernetes-group-version-kind', '[{"group":"","kind":"Pod","version":"v1"}]']],
      );
    });

    it('answers 406 with no body for an Accept it cannot serve, 304 for the current ETag', () => {
      assert.deepStrictEqual(get('/openapi/v2', { accept: 'text/html' }), {
        status: 406,
        headers: { Vary: 'Accept' },
        body: '',
      });
      const etag = get('/openapi/v2').headers.Etag;
      assert.match(etag, /^"[0-9A-F]{128}"$/);
      assert.deepStrictEqual(get('/openapi/v2', { ifNoneMatch: etag }), {
        status: 304,
        headers: { Vary: 'Accept', Etag: etag },
        body: '',
      });
    });
  });

  // Every built-in resource issue 25 serves, and the package's definition of its kind.
  const builtInKinds: [
    group: string,
    version: string,
    resource: string,
    kind: string,
    namespaced: boolean,
    definition: string,
  ][] = [
    ['', 'v1', 'pods', 'Pod', true, 'io.k8s.api.core.v1.Pod'],
    ['', 'v1', 'configmaps', 'ConfigMap', true, 'io.k8s.api.core.v1.ConfigMap'],
    ['', 'v1', 'secrets', 'Secret', true, 'io.k8s.api.core.v1.Secret'],
    ['', 'v1', 'services', 'Service', true, 'io.k8s.api.core.v1.Service'],
    ['', 'v1', 'endpoints', 'Endpoints', true, 'io.k8s.api.core.v1.Endpoints'],
    ['', 'v1', 'serviceaccounts', 'ServiceAccount', true, 'io.k8s.api.core.v1.ServiceAccount'],
    ['', 'v1', 'events', 'Event', true, 'io.k8s.api.core.v1.Event'],
    ['', 'v1', 'namespaces', 'Namespace', false, 'io.k8s.api.core.v1.Namespace'],
    ['', 'v1', 'nodes', 'Node', false, 'io.k8s.api.core.v1.Node'],
    [
      '',
      'v1',
      'persistentvolumes',
      'PersistentVolume',
      false,
      'io.k8s.api.core.v1.PersistentVolume',
    ],
    [
      '',
      'v1',
      'persistentvolumeclaims',
      'PersistentVolumeClaim',
      true,
      'io.k8s.api.core.v1.PersistentVolumeClaim',
    ],
    [
      '',
      'v1',
      'replicationcontrollers',
      'ReplicationController',
      true,
      'io.k8s.api.core.v1.ReplicationController',
    ],
    ['', 'v1', 'podtemplates', 'PodTemplate', true, 'io.k8s.api.core.v1.PodTemplate'],
    ['', 'v1', 'resourcequotas', 'ResourceQuota', true, 'io.k8s.api.core.v1.ResourceQuota'],
    ['', 'v1', 'limitranges', 'LimitRange', true, 'io.k8s.api.core.v1.LimitRange'],
    ['apps', 'v1', 'deployments', 'Deployment', true, 'io.k8s.api.apps.v1.Deployment'],
    ['apps', 'v1', 'replicasets', 'ReplicaSet', true, 'io.k8s.api.apps.v1.ReplicaSet'],
    ['apps', 'v1', 'statefulsets', 'StatefulSet', true, 'io.k8s.api.apps.v1.StatefulSet'],
    ['apps', 'v1', 'daemonsets', 'DaemonSet', true, 'io.k8s.api.apps.v1.DaemonSet'],
    [
      'apps',
      'v1',
      'controllerrevisions',
      'ControllerRevision',
      true,
      'io.k8s.api.apps.v1.ControllerRevision',
    ],
    ['batch', 'v1', 'jobs', 'Job', true, 'io.k8s.api.batch.v1.Job'],
    ['batch', 'v1', 'cronjobs', 'CronJob', true, 'io.k8s.api.batch.v1.CronJob'],
    ['coordination.k8s.io', 'v1', 'leases', 'Lease', true, 'io.k8s.api.coordination.v1.Lease'],
    ['events.k8s.io', 'v1', 'events', 'Event', true, 'io.k8s.api.events.v1.Event'],
    [
      'discovery.k8s.io',
      'v1',
      'endpointslices',
      'EndpointSlice',
      true,
      'io.k8s.api.discovery.v1.EndpointSlice',
    ],
    ['rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true, 'io.k8s.api.rbac.v1.Role'],
    [
      'rbac.authorization.k8s.io',
      'v1',
      'rolebindings',
      'RoleBinding',
      true,
      'io.k8s.api.rbac.v1.RoleBinding',
    ],
    [
      'rbac.authorization.k8s.io',
      'v1',
      'clusterroles',
      'ClusterRole',
      false,
      'io.k8s.api.rbac.v1.ClusterRole',
    ],
    [
      'rbac.authorization.k8s.io',
      'v1',
      'clusterrolebindings',
      'ClusterRoleBinding',
      false,
      'io.k8s.api.rbac.v1.ClusterRoleBinding',
    ],
    ['networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, 'io.k8s.api.networking.v1.Ingress'],
    [
      'networking.k8s.io',
      'v1',
      'networkpolicies',
      'NetworkPolicy',
      true,
      'io.k8s.api.networking.v1.NetworkPolicy',
    ],
    [
      'policy',
      'v1',
      'poddisruptionbudgets',
      'PodDisruptionBudget',
      true,
      'io.k8s.api.policy.v1.PodDisruptionBudget',
    ],
    [
      'autoscaling',
      'v2',
      'horizontalpodautoscalers',
      'HorizontalPodAutoscaler',
      true,
      'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
    ],
    [
      'apiextensions.k8s.io',
      'v1',
      'customresourcedefinitions',
      'CustomResourceDefinition',
      false,
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    ],
  ];
  const builtInServed = (row: (typeof builtInKinds)[number]): ServedResource =>
    served({
      group: row[0],
      version: row[1],
      resource: row[2],
      singularName: row[3].toLowerCase(),
      kind: row[3],
      namespaced: row[4],
      shortNames: [],
      categories: [],
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      jsonOnly: false,
    });
  const everyBuiltIn = builtInKinds.map(builtInServed);

  describe('every built-in kind served', () => {
    for (const row of builtInKinds) {
      const [group, version, resource, kind, namespaced, definition] = row;
      const gv = group === '' ? `api/${version}` : `apis/${group}/${version}`;
      it(`${gv} ${resource}: ${definition} and its list, with their group-version-kinds`, () => {
        const only = [builtInServed(row)];
        const v3 = json(get(`/openapi/v3/${gv}`, {}, only).body);
        const v2 = json(get('/openapi/v2', {}, only).body);
        for (const [doc, schemas, prefix] of [
          [v3, v3.components.schemas, '#/components/schemas/'],
          [v2, v2.definitions, '#/definitions/'],
        ]) {
          assert.deepStrictEqual(schemas[definition]['x-kubernetes-group-version-kind'], [
            { group, kind, version },
          ]);
          assert.deepStrictEqual(schemas[`${definition}List`]['x-kubernetes-group-version-kind'], [
            { group, kind: `${kind}List`, version },
          ]);
          assert.ok(schemas[definition].description, 'the kind has its description');
          assertRefsResolve(doc, prefix, schemas);
          // Only the served kind and what it references: no other kind of the package.
          const referenced = kind === 'StatefulSet' ? ['PersistentVolumeClaim'] : [];
          const kinds = Object.values(schemas as Doc)
            .flatMap((s: Doc) => s['x-kubernetes-group-version-kind'] ?? [])
            .filter((g: Doc) => !['Status', 'DeleteOptions', 'WatchEvent'].includes(g.kind))
            .map((g: Doc) => g.kind)
            .sort();
          assert.deepStrictEqual(kinds, [kind, `${kind}List`, ...referenced].sort());
        }
        const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
        const item = `${prefix}${namespaced ? '/namespaces/{namespace}' : ''}/${resource}/{name}`;
        assert.deepStrictEqual(v3.paths[item].get['x-kubernetes-group-version-kind'], {
          group,
          kind,
          version,
        });
        assert.deepStrictEqual(v2.paths[item].patch['x-kubernetes-group-version-kind'], {
          group,
          kind,
          version,
        });
      });
    }

    // What `kubectl apply` (strategic merge) and server-side apply (list types) read.
    const extensions: [gv: string, definition: string, property: string, want: Doc][] = [
      [
        'api/v1',
        'io.k8s.api.core.v1.PodSpec',
        'containers',
        { 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' },
      ],
      [
        'api/v1',
        'io.k8s.api.core.v1.Container',
        'ports',
        {
          'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'containerPort',
          'x-kubernetes-patch-strategy': 'merge',
        },
      ],
      [
        'api/v1',
        'io.k8s.api.core.v1.ServiceSpec',
        'ports',
        {
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'port',
          'x-kubernetes-patch-strategy': 'merge',
        },
      ],
      [
        'api/v1',
        'io.k8s.api.core.v1.ServiceAccount',
        'secrets',
        { 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' },
      ],
      [
        'api/v1',
        'io.k8s.api.core.v1.NodeStatus',
        'addresses',
        { 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' },
      ],
      [
        'api/v1',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
        'ownerReferences',
        { 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge' },
      ],
      [
        'api/v1',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
        'finalizers',
        { 'x-kubernetes-patch-strategy': 'merge' },
      ],
      [
        'apis/apps/v1',
        'io.k8s.api.apps.v1.DeploymentStatus',
        'conditions',
        { 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' },
      ],
      [
        'apis/batch/v1',
        'io.k8s.api.batch.v1.JobStatus',
        'conditions',
        {
          'x-kubernetes-list-type': 'atomic',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        },
      ],
      [
        'apis/discovery.k8s.io/v1',
        'io.k8s.api.discovery.v1.EndpointSlice',
        'endpoints',
        { 'x-kubernetes-list-type': 'atomic' },
      ],
      [
        'apis/networking.k8s.io/v1',
        'io.k8s.api.networking.v1.IngressSpec',
        'rules',
        { 'x-kubernetes-list-type': 'atomic' },
      ],
      [
        'apis/policy/v1',
        'io.k8s.api.policy.v1.PodDisruptionBudgetStatus',
        'conditions',
        {
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        },
      ],
      [
        'apis/autoscaling/v2',
        'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec',
        'metrics',
        { 'x-kubernetes-list-type': 'atomic' },
      ],
      [
        'apis/apiextensions.k8s.io/v1',
        'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus',
        'conditions',
        { 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-list-type': 'map' },
      ],
    ];
    for (const [gv, definition, property, want] of extensions) {
      it(`${gv}: ${definition}.${property} carries ${Object.keys(want).join(', ')}`, () => {
        const schemas = json(get(`/openapi/v3/${gv}`, {}, everyBuiltIn).body).components.schemas;
        const p = schemas[definition].properties[property];
        const got = Object.fromEntries(Object.entries(p).filter(([k]) => k.startsWith('x-')));
        assert.deepStrictEqual(got, want);
        const v2 = json(get('/openapi/v2', {}, everyBuiltIn).body).definitions;
        assert.deepStrictEqual(v2[definition].properties[property], {
          ...p,
          ...(p.items?.$ref
            ? { items: { $ref: p.items.$ref.replace('components/schemas', 'definitions') } }
            : {}),
        });
      });
    }

    it('keys a kind by group, version and kind: core/v1 Event and events.k8s.io/v1 Event apart', () => {
      const index = json(get('/openapi/v3', {}, everyBuiltIn).body);
      assert.deepStrictEqual(Object.keys(index.paths), [
        'api/v1',
        'apis/apiextensions.k8s.io/v1',
        'apis/apps/v1',
        'apis/autoscaling/v2',
        'apis/batch/v1',
        'apis/coordination.k8s.io/v1',
        'apis/discovery.k8s.io/v1',
        'apis/events.k8s.io/v1',
        'apis/networking.k8s.io/v1',
        'apis/policy/v1',
        'apis/rbac.authorization.k8s.io/v1',
      ]);
      const core = json(get('/openapi/v3/api/v1', {}, everyBuiltIn).body).components.schemas;
      const events = json(get('/openapi/v3/apis/events.k8s.io/v1', {}, everyBuiltIn).body)
        .components.schemas;
      assert.ok(core['io.k8s.api.core.v1.Event'] && !core['io.k8s.api.events.v1.Event']);
      assert.ok(events['io.k8s.api.events.v1.Event'] && !events['io.k8s.api.core.v1.Event']);
    });

    it('encodes every kind in the protobuf v2 document kubectl 1.20 reads', () => {
      const r = get(
        '/openapi/v2',
        { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
        everyBuiltIn,
      );
      const definitions = fields(fields(r.body as Uint8Array)[3][1] as Uint8Array).map(
        ([, named]) => text(fields(named as Uint8Array)[0][1]),
      );
      for (const [, , , , , definition] of builtInKinds)
        assert.ok(definitions.includes(definition), definition);
      assert.deepStrictEqual(
        definitions,
        Object.keys(json(get('/openapi/v2', {}, everyBuiltIn).body).definitions),
      );
    });

    it('gives a served built-in kind the package lacks its group-version-kind and open fields', () => {
      const widgets = served({
        group: 'widgets.k8s.io',
        version: 'v1',
        resource: 'widgets',
        singularName: 'widget',
        kind: 'Widget',
        namespaced: true,
        shortNames: [],
        categories: [],
        verbs: ['get', 'list'],
        jsonOnly: false,
      });
      const doc = json(get('/openapi/v3/apis/widgets.k8s.io/v1', {}, [widgets]).body);
      assert.deepStrictEqual(doc.components.schemas['io.k8s.widgets.v1.Widget'], {
        type: 'object',
        'x-kubernetes-group-version-kind': [
          { group: 'widgets.k8s.io', kind: 'Widget', version: 'v1' },
        ],
        'x-kubernetes-preserve-unknown-fields': true,
      });
      assert.deepStrictEqual(
        doc.components.schemas['io.k8s.widgets.v1.WidgetList']['x-kubernetes-group-version-kind'],
        [{ group: 'widgets.k8s.io', kind: 'WidgetList', version: 'v1' }],
      );
      assertRefsResolve(doc, '#/components/schemas/', doc.components.schemas);
    });

    it("renders anew when a served resource's schema changes in place (a CRD updated)", () => {
      const cr: ServedResource = { ...crontabs, openAPIV3Schema: { type: 'object' } };
      const resources = [pods, cr];
      const before = get('/openapi/v3', {}, resources).body;
      assert.strictEqual(get('/openapi/v3', {}, resources).body, before, 'the same index');
      cr.openAPIV3Schema = {
        type: 'object',
        properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } },
      };
      const after = json(get('/openapi/v3', {}, resources).body).paths;
      assert.strictEqual(
        after['api/v1'].serverRelativeURL,
        json(before).paths['api/v1'].serverRelativeURL,
      );
      assert.notStrictEqual(
        after['apis/stable.example.com/v1'].serverRelativeURL,
        json(before).paths['apis/stable.example.com/v1'].serverRelativeURL,
      );
      const doc = json(get('/openapi/v3/apis/stable.example.com/v1', {}, resources).body);
      assert.deepStrictEqual(
        doc.components.schemas['com.example.stable.v1.CronTab'].properties.spec,
        { type: 'object', properties: { image: { type: 'string' } } },
      );
    });
  });
});
