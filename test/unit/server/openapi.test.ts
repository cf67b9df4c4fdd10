// Tests for src/server/openapi.ts, openapi-definitions.ts and openapi-v2-protobuf.ts: the
// documents kubectl reads (v3 index and group-version documents for explain and the
// fieldValidation check, v2 JSON and protobuf for older kubectl), and kube-openapi's answers to
// Accept, hashes and ETags.
import * as assert from 'assert';
import { createHash } from 'crypto';
import { serveOpenAPI, type OpenAPIRequest } from '../../../src/server/openapi';
import type { ServedResource } from '../../../src/server/served-resource';
import { builtIns, crontabs } from './fixtures';

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

function get(path: string, o: Partial<OpenAPIRequest> = {}) {
  const [p, q = ''] = path.split('?');
  const r = serveOpenAPI({ path: p, query: new URLSearchParams(q), ...o }, all, {
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
        if (k === '$ref') {
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

    it('names every upstream PodSpec field, the unmodelled ones arbitrary but with their merge keys', () => {
      const spec = json(get('/openapi/v3/api/v1').body).components.schemas[
        'io.k8s.api.core.v1.PodSpec'
      ];
      const names = Object.keys(spec.properties);
      assert.deepStrictEqual(names, [...names].sort());
      for (const f of ['affinity', 'securityContext', 'tolerations', 'volumes', 'dnsPolicy'])
        assert.ok(names.includes(f), f);
      assert.deepStrictEqual(spec.properties.affinity, {});
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

    it('leaves out a built-in without a schema here, so every ref still resolves (kubectl 1.20 validates with it)', () => {
      const leases: ServedResource = {
        ...builtIns[0],
        group: 'coordination.k8s.io',
        resource: 'leases',
        singularName: 'lease',
        kind: 'Lease',
        listKind: 'LeaseList',
        shortNames: [],
        categories: [],
      };
      const r = serveOpenAPI(
        { path: '/openapi/v2', query: new URLSearchParams() },
        [...all, leases],
        {
          gitVersion: 'v1.36.0',
          now,
        },
      );
      const doc = json(r!.body);
      assertRefsResolve(doc, '#/definitions/', doc.definitions);
      assert.ok(!Object.keys(doc.paths).some((p) => p.includes('leases')));
      assert.ok(doc.paths['/api/v1/namespaces/{namespace}/pods']);
      const v3 = serveOpenAPI(
        { path: '/openapi/v3', query: new URLSearchParams() },
        [...all, leases],
        {
          gitVersion: 'v1.36.0',
          now,
        },
      );
      assert.ok(!json(v3!.body).paths['apis/coordination.k8s.io/v1']);
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
});
