// Tests for src/server/api-server.ts and its filters and handlers: a real ApiServer on a free
// port, spoken to over HTTP and HTTPS with Node's own clients. Messages are upstream's, byte for
// byte (k8s.io/apiserver pkg/endpoints/handlers, pkg/registry/generic/registry/store.go).
import * as assert from 'assert';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { goJsonMarshal, type GoJsonValue } from '../../../src/engine/encoding/go-json';
import { ApiServer } from '../../../src/server/api-server';
import {
  exemptFlowSchemaUID,
  exemptPriorityLevelUID,
} from '../../../src/server/filters/priority-and-fairness';
import { withoutTypeMeta } from '../../../src/server/list-item-json';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Name, value, name, value, … as they came. */
  rawHeaders: string[];
  text: string;
  json: Record<string, unknown>;
}

/** One request with node:http(s), which lets a test set any Host header. */
function call(
  server: ApiServer,
  method: string,
  path: string,
  o: {
    body?: unknown;
    token?: string | null;
    host?: string;
    https?: boolean;
    contentType?: string;
    accept?: string;
    userAgent?: string;
  } = {},
): Promise<Reply> {
  const body =
    o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
  const headers: Record<string, string> = { 'content-type': o.contentType ?? 'application/json' };
  const token = o.token === undefined ? server.token : o.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (o.host !== undefined) headers.host = o.host;
  if (o.accept !== undefined) headers.accept = o.accept;
  if (o.userAgent !== undefined) headers['user-agent'] = o.userAgent;
  // Node's client sends a DELETE's body without a length unless told.
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const send = o.https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      `${o.https ? server.httpsUrl : server.url}${path}`,
      { method, headers, rejectUnauthorized: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON: the test looks at text
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            text,
            json,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const configMap = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data: { a: 'b' },
});

describe('ApiServer (live HTTP)', () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0, seed: { pods: 5, configmaps: 2 } });
  });
  after(async () => {
    await server.stop();
  });

  describe('filters', () => {
    it('answers a request without the token with the Unauthorized Status', async () => {
      for (const token of [null, 'wrong', '']) {
        const r = await call(server, 'GET', '/api/v1/pods', { token });
        assert.strictEqual(r.status, 401, `token ${token}`);
        assert.strictEqual(
          r.text,
          '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n',
        );
      }
    });

    // ErrorNegotiated negotiates a Status as any object: the pretty serializer (json.MarshalIndent,
    // no trailing newline) for pretty=1 in Accept, ?pretty=true and curl/Wget/browser agents; and
    // WriteRawJSON (indented too) when no served type is acceptable.
    const notFound =
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"configmaps"},"code":404}';
    const notFoundIndented =
      '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "configmaps \\"nope\\" not found",\n  "reason": "NotFound",\n  "details": {\n    "name": "nope",\n    "kind": "configmaps"\n  },\n  "code": 404\n}';
    const notAcceptableIndented =
      '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",\n  "reason": "NotAcceptable",\n  "code": 406\n}';
    const errorCases: {
      name: string;
      query?: string;
      accept?: string;
      userAgent?: string;
      indented: boolean;
      status?: number;
    }[] = [
      { name: 'no Accept, no agent', indented: false },
      {
        name: 'kubectl',
        userAgent: 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0',
        indented: false,
      },
      { name: '?pretty=1', query: '?pretty=1', indented: true },
      { name: '?pretty=true', query: '?pretty=true', indented: true },
      { name: 'pretty=1 in Accept', accept: 'application/json;pretty=1', indented: true },
      { name: 'curl', userAgent: 'curl/8.5.0', indented: true },
      { name: 'Wget', userAgent: 'Wget/1.21.4', indented: true },
      { name: 'a browser', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', indented: true },
      {
        name: 'curl with ?pretty=false',
        userAgent: 'curl/8.5.0',
        query: '?pretty=false',
        indented: false,
      },
      // The GET's own 406, written by WriteRawJSON as the negotiation fails again.
      {
        name: 'no acceptable type (WriteRawJSON)',
        accept: 'text/html',
        indented: true,
        status: 406,
      },
      {
        name: 'a Table Accept with a JSON fallback (no conversion for errors)',
        accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
        indented: false,
      },
    ];
    for (const c of errorCases) {
      it(`writes an error ${c.indented ? 'indented' : 'compact'}: ${c.name}`, async () => {
        const r = await call(
          server,
          'GET',
          `/api/v1/namespaces/default/configmaps/nope${c.query ?? ''}`,
          {
            accept: c.accept,
            userAgent: c.userAgent,
          },
        );
        if (c.status === 406) {
          assert.strictEqual(r.status, 406, c.name);
          assert.strictEqual(r.text, notAcceptableIndented, c.name);
          return;
        }
        assert.strictEqual(r.status, 404, c.name);
        assert.strictEqual(r.text, c.indented ? notFoundIndented : notFound + '\n', c.name);
      });
    }

    // handleWatch hands the storage's error to scope.err uninterpreted: the versioner's
    // InvalidError is ErrorToAPIStatus's 500 with its text, no reason (not the 422 of a GET).
    const badWatchRVs: { rv: string; detail: string }[] = [
      { rv: 'abc', detail: 'strconv.ParseUint: parsing \\"abc\\": invalid syntax' },
      { rv: '-1', detail: 'strconv.ParseUint: parsing \\"-1\\": invalid syntax' },
      {
        rv: '18446744073709551616',
        detail: 'strconv.ParseUint: parsing \\"18446744073709551616\\": value out of range',
      },
    ];
    for (const c of badWatchRVs) {
      it(`answers a watch from resourceVersion=${c.rv} as kube-apiserver does: 500, not interpreted`, async () => {
        const r = await call(
          server,
          'GET',
          `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${c.rv}`,
        );
        assert.strictEqual(r.status, 500, r.text);
        assert.strictEqual(
          r.text,
          `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion: Invalid value: \\"${c.rv}\\": ${c.detail}","code":500}\n`,
        );
      });
    }

    // WithPriorityAndFairness classifies every authenticated request (system:masters: the exempt
    // FlowSchema and priority level) and names both by UID; a 401 or 421 never reaches it.
    const apfCases: {
      name: string;
      method: string;
      path: string;
      status: number;
      classified: boolean;
    }[] = [
      {
        name: 'a LIST',
        method: 'GET',
        path: '/api/v1/namespaces/default/pods',
        status: 200,
        classified: true,
      },
      {
        name: 'a GET that is 404',
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps/nope',
        status: 404,
        classified: true,
      },
      {
        name: 'a watch',
        method: 'GET',
        path: '/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=-1',
        status: 200,
        classified: true,
      },
      {
        name: 'a write',
        method: 'DELETE',
        path: '/api/v1/namespaces/default/configmaps/nope',
        status: 404,
        classified: true,
      },
      { name: '/healthz', method: 'GET', path: '/healthz', status: 200, classified: true },
      { name: 'discovery', method: 'GET', path: '/api', status: 200, classified: true },
      {
        name: 'a path nothing serves',
        method: 'GET',
        path: '/nothing/here',
        status: 404,
        classified: true,
      },
    ];
    for (const c of apfCases) {
      it(`sets the APF response headers (exempt): ${c.name}`, async () => {
        const r = await call(server, c.method, c.path);
        assert.strictEqual(r.status, c.status, `${c.name}: ${r.text}`);
        assert.strictEqual(
          r.headers['x-kubernetes-pf-flowschema-uid'],
          exemptFlowSchemaUID,
          c.name,
        );
        assert.strictEqual(
          r.headers['x-kubernetes-pf-prioritylevel-uid'],
          exemptPriorityLevelUID,
          c.name,
        );
      });
    }

    // A watch's response holds these headers back for its writeHead (held-headers-response.ts):
    // they still go out first, on the stream and on every refusal.
    const watchHeaderCases: { name: string; path: string; status: number }[] = [
      {
        name: 'streamed',
        path: '/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=-1',
        status: 200,
      },
      {
        name: 'refused by storage',
        path: '/api/v1/namespaces/default/pods?watch=1&resourceVersion=abc',
        status: 500,
      },
      {
        name: 'of nothing served',
        path: '/api/v1/namespaces/default/nothings?watch=1',
        status: 404,
      },
      {
        name: 'not acceptable',
        path: '/api/v1/namespaces/default/pods?watch=1&as=Table',
        status: 406,
      },
    ];
    for (const c of watchHeaderCases) {
      it(`a watch ${c.name}: Cache-Control and the APF headers first, as on every response`, async () => {
        const r = await call(server, 'GET', c.path, {
          accept: c.status === 406 ? 'application/yaml' : undefined,
        });
        assert.strictEqual(r.status, c.status, `${c.name}: ${r.text}`);
        assert.deepStrictEqual(
          r.rawHeaders.filter((_, i) => i % 2 === 0).slice(0, 3),
          ['Cache-Control', 'X-Kubernetes-Pf-Prioritylevel-Uid', 'X-Kubernetes-Pf-Flowschema-Uid'],
          c.name,
        );
        assert.strictEqual(r.headers['cache-control'], 'no-cache, private', c.name);
        assert.strictEqual(
          r.headers['x-kubernetes-pf-flowschema-uid'],
          exemptFlowSchemaUID,
          c.name,
        );
      });
    }

    it('sets no APF headers before authentication (401) or on a foreign Host (421)', async () => {
      const denied = await call(server, 'GET', '/api/v1/pods', { token: null });
      const foreign = await call(server, 'GET', '/api/v1/pods', { host: 'evil.example' });
      for (const r of [denied, foreign]) {
        assert.ok([401, 421].includes(r.status), r.text);
        assert.strictEqual(r.headers['x-kubernetes-pf-flowschema-uid'], undefined);
        assert.strictEqual(r.headers['x-kubernetes-pf-prioritylevel-uid'], undefined);
      }
    });

    it('writes the 401 indented for curl, as ErrorNegotiated does', async () => {
      const r = await call(server, 'GET', '/api/v1/pods', { token: null, userAgent: 'curl/8.5.0' });
      assert.strictEqual(r.status, 401);
      assert.strictEqual(
        r.text,
        '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "Unauthorized",\n  "reason": "Unauthorized",\n  "code": 401\n}',
      );
    });

    it('escapes <, > and & in pretty output as Go does', async () => {
      const cm = configMap('html-chars');
      cm.data = { page: '<a href="x">&</a>' };
      const created = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: cm,
      });
      assert.strictEqual(created.status, 201, created.text);
      for (const [name, o] of [
        ['?pretty=1', { query: '?pretty=1' }],
        ['compact', { query: '' }],
      ] as const) {
        const r = await call(
          server,
          'GET',
          `/api/v1/namespaces/default/configmaps/html-chars${o.query}`,
        );
        assert.ok(
          r.text.includes(
            '"page":' +
              (name === 'compact' ? '' : ' ') +
              '"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"',
          ),
          `${name}: ${r.text}`,
        );
        assert.strictEqual(
          r.text.endsWith('}'),
          name !== 'compact',
          `${name}: trailing newline only when compact`,
        );
      }
    });

    it('refuses a Host that is not its own address with 421, before authentication', async () => {
      for (const host of ['evil.example', `evil.example:${server.port}`, '127.0.0.1:1']) {
        const r = await call(server, 'GET', '/api/v1/pods', { host, token: null });
        assert.strictEqual(r.status, 421, host);
        assert.strictEqual(r.json.code, 421);
      }
      for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
        const r = await call(server, 'GET', '/api/v1/namespaces', { host });
        assert.strictEqual(r.status, 200, host);
      }
    });

    it('listens on loopback only', () => {
      assert.strictEqual(server.boundAddress, '127.0.0.1');
      assert.strictEqual(server.url, `http://127.0.0.1:${server.port}`);
    });

    it('sends no CORS headers', async () => {
      const r = await call(server, 'GET', '/api/v1/namespaces');
      assert.deepStrictEqual(
        Object.keys(r.headers).filter((h) => h.startsWith('access-control-')),
        [],
      );
    });

    it('answers a body over 3 MiB with 413 RequestEntityTooLarge', async () => {
      const big = configMap('big');
      big.data = { a: 'x'.repeat(3 * 1024 * 1024) };
      const r = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: big });
      assert.strictEqual(r.status, 413);
      assert.strictEqual(r.json.message, 'Request entity too large: limit is 3145728');
      assert.strictEqual(r.json.reason, 'RequestEntityTooLarge');
    });

    it('serves HTTPS on the same port, with the same token', async () => {
      const r = await call(server, 'GET', '/api/v1/namespaces/default/pods', { https: true });
      assert.strictEqual(r.status, 200);
      assert.strictEqual((r.json.items as unknown[]).length, 5);
      const denied = await call(server, 'GET', '/api/v1/pods', { https: true, token: null });
      assert.strictEqual(denied.status, 401);
    });
  });

  describe('namespaces, a cluster-scoped resource under its own path', () => {
    it('gets, patches and deletes /api/v1/namespaces/<name> (requestinfo reads it as namespace <name>)', async () => {
      const created = await call(server, 'POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      });
      assert.strictEqual(created.status, 201, created.text);
      const got = await call(server, 'GET', '/api/v1/namespaces/shop');
      assert.strictEqual(got.status, 200, got.text);
      assert.strictEqual((got.json.metadata as { name: string }).name, 'shop');
      const patched = await call(server, 'PATCH', '/api/v1/namespaces/shop', {
        body: { metadata: { labels: { a: 'b' } } },
        contentType: 'application/merge-patch+json',
      });
      assert.strictEqual(patched.status, 200, patched.text);
      assert.strictEqual(
        (patched.json.metadata as { labels: Record<string, string> }).labels.a,
        'b',
      );
      // REST.Delete marks it; the finalize subresource's update that empties spec.finalizers
      // deletes it (what the namespace controller does once the namespace is empty).
      const deleted = await call(server, 'DELETE', '/api/v1/namespaces/shop');
      assert.strictEqual(deleted.status, 200, deleted.text);
      assert.strictEqual((deleted.json.status as { phase: string }).phase, 'Terminating');
      const finalized = await call(server, 'PUT', '/api/v1/namespaces/shop/finalize', {
        body: { ...deleted.json, spec: { finalizers: [] } },
      });
      assert.strictEqual(finalized.status, 200, finalized.text);
      const gone = await call(server, 'GET', '/api/v1/namespaces/shop');
      assert.strictEqual(gone.status, 404);
      assert.strictEqual(gone.json.message, 'namespaces "shop" not found');
    });

    it('still answers 404 for a cluster-scoped resource under another namespace', async () => {
      const r = await call(server, 'GET', '/api/v1/namespaces/default/namespaces/default');
      assert.strictEqual(r.status, 404);
    });
  });

  describe('kubeconfig', () => {
    it('names the https address, the token and the listwatch context, mode 0600', () => {
      const cfg = load(readFileSync(server.kubeconfigPath, 'utf8')) as {
        clusters: Array<{ name: string; cluster: Record<string, unknown> }>;
        users: Array<{ name: string; user: { token: string } }>;
        'current-context': string;
      };
      assert.deepStrictEqual(Object.keys(cfg.clusters[0].cluster), [
        'server',
        'certificate-authority-data',
      ]);
      assert.strictEqual(cfg.clusters[0].cluster.server, server.httpsUrl);
      assert.strictEqual(cfg.users[0].user.token, server.token);
      assert.strictEqual(cfg['current-context'], 'listwatch');
      assert.strictEqual(statSync(server.kubeconfigPath).mode & 0o777, 0o600);
    });
  });

  describe('verbs', () => {
    it('seeds the system namespaces', async () => {
      const r = await call(server, 'GET', '/api/v1/namespaces');
      assert.strictEqual(r.json.kind, 'NamespaceList');
      const names = (r.json.items as Array<{ metadata: { name: string } }>).map(
        (i) => i.metadata.name,
      );
      assert.deepStrictEqual(names, ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    });

    it('creates (201), gets and lists an object; list items carry no kind', async () => {
      const c = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: configMap('made'),
      });
      assert.strictEqual(c.status, 201, c.text);
      const meta = c.json.metadata as Record<string, unknown>;
      assert.deepStrictEqual(Object.keys(c.json), ['kind', 'apiVersion', 'metadata', 'data']);
      assert.deepStrictEqual(Object.keys(meta), [
        'name',
        'namespace',
        'uid',
        'resourceVersion',
        'creationTimestamp',
        // Every write records its field manager (createHandler's UpdateNoErrors).
        'managedFields',
      ]);
      assert.match(meta.uid as string, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
      assert.match(meta.creationTimestamp as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const g = await call(server, 'GET', '/api/v1/namespaces/default/configmaps/made');
      assert.strictEqual(g.status, 200);
      assert.deepStrictEqual(g.json, c.json);
      const l = await call(server, 'GET', '/api/v1/namespaces/default/configmaps');
      assert.strictEqual(l.json.kind, 'ConfigMapList');
      const items = l.json.items as Array<Record<string, unknown>>;
      assert.ok(items.some((i) => (i.metadata as { name: string }).name === 'made'));
      assert.ok(items.every((i) => i.kind === undefined && i.apiVersion === undefined));
    });

    it('sets generation 1 on a pod', async () => {
      const c = await call(server, 'POST', '/api/v1/namespaces/default/pods', {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'gen' },
          spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
        },
      });
      assert.strictEqual(c.status, 201, c.text);
      assert.strictEqual((c.json.metadata as { generation: number }).generation, 1);
    });

    it('refuses a bad name with the 422 kube-apiserver answers, byte for byte', async () => {
      const c = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: configMap('Bad_Name'),
      });
      assert.strictEqual(c.status, 422);
      const subdomain =
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
      assert.strictEqual(
        c.text,
        `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ConfigMap \\"Bad_Name\\" is invalid: metadata.name: Invalid value: \\"Bad_Name\\": ${subdomain}","reason":"Invalid","details":{"name":"Bad_Name","kind":"ConfigMap","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \\"Bad_Name\\": ${subdomain}","field":"metadata.name"}]},"code":422}\n`,
      );
    });

    it('refuses a namespace name that is no DNS-1123 label', async () => {
      const c = await call(server, 'POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a.b' } },
      });
      assert.strictEqual(c.status, 422, c.text);
      assert.strictEqual(
        c.json.message,
        'Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots',
      );
    });

    it('expands generateName with 5 characters of the rand alphabet', async () => {
      const c = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'made-' } },
      });
      assert.strictEqual(c.status, 201, c.text);
      const meta = c.json.metadata as { name: string; generateName: string };
      assert.match(meta.name, /^made-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.strictEqual(meta.generateName, 'made-');
    });

    it('sets resourceVersion, uid and creationTimestamp on create', async () => {
      const c = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: configMap('stamped'),
      });
      assert.strictEqual(c.status, 201, c.text);
      const meta = c.json.metadata as Record<string, string>;
      assert.match(meta.resourceVersion, /^[1-9][0-9]*$/);
      assert.match(
        meta.uid,
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      assert.match(meta.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const g = await call(server, 'GET', '/api/v1/namespaces/default/configmaps/stamped');
      assert.strictEqual(
        (g.json.metadata as Record<string, string>).resourceVersion,
        meta.resourceVersion,
      );
    });

    it('refuses a create that sets resourceVersion, as the store does', async () => {
      const body = configMap('versioned');
      (body.metadata as Record<string, string>).resourceVersion = '5';
      const c = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body });
      assert.strictEqual(c.status, 500, c.text);
      assert.strictEqual(
        c.json.message,
        'resourceVersion should not be set on objects to be created',
      );
    });

    it('answers AlreadyExists for a second create', async () => {
      const r = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: configMap('configmap-0'),
      });
      assert.strictEqual(r.status, 409);
      assert.strictEqual(r.json.message, 'configmaps "configmap-0" already exists');
      assert.strictEqual(r.json.reason, 'AlreadyExists');
    });

    it('refuses a create into a namespace that does not exist (NamespaceLifecycle)', async () => {
      const r = await call(server, 'POST', '/api/v1/namespaces/nope/configmaps', {
        body: configMap('x'),
      });
      assert.strictEqual(r.status, 404);
      assert.strictEqual(
        r.text,
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"namespaces \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"namespaces"},"code":404}\n',
      );
    });

    it('refuses a body namespace that is not the URL namespace', async () => {
      const r = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: configMap('x', { namespace: 'kube-system' }),
      });
      assert.strictEqual(r.status, 400);
      assert.strictEqual(
        r.json.message,
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    });

    it('answers NotFound for a missing object', async () => {
      const r = await call(server, 'GET', '/api/v1/namespaces/default/pods/missing');
      assert.strictEqual(r.status, 404);
      assert.strictEqual(r.json.message, 'pods "missing" not found');
    });

    it('updates with the resourceVersion precondition: 200, then 409 for a stale one', async () => {
      const c = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: configMap('upd'),
      });
      const rv = (c.json.metadata as { resourceVersion: string }).resourceVersion;
      const ok = await call(server, 'PUT', '/api/v1/namespaces/default/configmaps/upd', {
        body: { ...configMap('upd', { resourceVersion: rv }), data: { a: 'c' } },
      });
      assert.strictEqual(ok.status, 200, ok.text);
      const meta = ok.json.metadata as Record<string, string>;
      assert.notStrictEqual(meta.resourceVersion, rv);
      assert.strictEqual(meta.uid, (c.json.metadata as { uid: string }).uid);
      const stale = await call(server, 'PUT', '/api/v1/namespaces/default/configmaps/upd', {
        body: configMap('upd', { resourceVersion: rv }),
      });
      assert.strictEqual(stale.status, 409);
      assert.strictEqual(
        stale.text,
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on configmaps \\"upd\\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"upd","kind":"configmaps"},"code":409}\n',
      );
      const renamed = await call(server, 'PUT', '/api/v1/namespaces/default/configmaps/upd', {
        body: configMap('other'),
      });
      assert.strictEqual(renamed.status, 400);
      assert.strictEqual(
        renamed.json.message,
        'the name of the object (other) does not match the name on the URL (upd)',
      );
    });

    it('patches with a merge patch and a strategic merge patch (kubectl label)', async () => {
      const path = '/api/v1/namespaces/default/pods/pod-1';
      const merge = await call(server, 'PATCH', path, {
        body: { metadata: { labels: { tier: 'web' } } },
        contentType: 'application/merge-patch+json',
      });
      assert.strictEqual(merge.status, 200, merge.text);
      assert.deepStrictEqual((merge.json.metadata as { labels: object }).labels, {
        app: 'seed',
        tier: 'web',
      });
      const smp = await call(server, 'PATCH', path, {
        body: { metadata: { labels: { tier: null } } },
        contentType: 'application/strategic-merge-patch+json',
      });
      assert.strictEqual(smp.status, 200, smp.text);
      assert.deepStrictEqual((smp.json.metadata as { labels: object }).labels, { app: 'seed' });
      const missing = await call(server, 'PATCH', '/api/v1/namespaces/default/pods/nope', {
        body: {},
        contentType: 'application/merge-patch+json',
      });
      assert.strictEqual(missing.status, 404);
      const wrongType = await call(server, 'PATCH', path, { body: {}, contentType: 'text/plain' });
      assert.strictEqual(wrongType.status, 415);
    });

    it('deletes: a pod answers itself, a configmap a Success Status; preconditions conflict', async () => {
      const pod = await call(server, 'GET', '/api/v1/namespaces/default/pods/pod-0');
      const uid = (pod.json.metadata as { uid: string }).uid;
      const wrong = await call(server, 'DELETE', '/api/v1/namespaces/default/pods/pod-0', {
        body: { preconditions: { uid: 'not-it' } },
      });
      assert.strictEqual(wrong.status, 409, wrong.text);
      assert.strictEqual(
        wrong.json.message,
        `Operation cannot be fulfilled on Pod "pod-0": the UID in the precondition (not-it) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
      );
      const d = await call(server, 'DELETE', '/api/v1/namespaces/default/pods/pod-0', {
        body: { preconditions: { uid } },
      });
      assert.strictEqual(d.status, 200, d.text);
      assert.strictEqual(d.json.kind, 'Pod');
      const cm = await call(server, 'DELETE', '/api/v1/namespaces/default/configmaps/configmap-1');
      assert.strictEqual(cm.status, 200);
      assert.deepStrictEqual(
        { ...cm.json, details: { ...(cm.json.details as object), uid: '' } },
        {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name: 'configmap-1', kind: 'configmaps', uid: '' },
        },
      );
      const gone = await call(server, 'GET', '/api/v1/namespaces/default/pods/pod-0');
      assert.strictEqual(gone.status, 404);
    });

    it('deletecollection deletes what the selector selects and answers the list', async () => {
      for (const name of ['dc-a', 'dc-b'])
        await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
          body: configMap(name, { labels: { batch: 'dc' } }),
        });
      const r = await call(
        server,
        'DELETE',
        '/api/v1/namespaces/default/configmaps?labelSelector=batch%3Ddc',
      );
      assert.strictEqual(r.status, 200, r.text);
      assert.deepStrictEqual(
        (r.json.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name),
        ['dc-a', 'dc-b'],
      );
      const l = await call(
        server,
        'GET',
        '/api/v1/namespaces/default/configmaps?labelSelector=batch%3Ddc',
      );
      assert.deepStrictEqual(l.json.items, []);
    });

    it('a LIST writes each item as goJsonMarshal does, and leaves the shared cache objects unchanged', async () => {
      const pods = server.resources.all.find((r) => r.resource === 'pods')!.engine;
      const cached = (): string[] =>
        pods.watchCache
          .list()
          .filter((e) => e.key.startsWith('/pods/default/'))
          .map((e) => goJsonMarshal(e.object as unknown as GoJsonValue));
      const before = cached();
      assert.ok(before.length >= 5, `seeded pods: ${before.length}`);
      const cases: { name: string; accept?: string; query?: string }[] = [
        { name: 'JSON' },
        { name: 'JSON again (the memoised encodings)' },
        { name: 'a Table', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
        {
          name: 'a Table with the objects',
          accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
          query: '?includeObject=Object',
        },
        {
          name: 'PartialObjectMetadataList',
          accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
        },
        { name: 'pretty JSON', query: '?pretty=true' },
      ];
      for (const c of cases) {
        const r = await call(server, 'GET', `/api/v1/namespaces/default/pods${c.query ?? ''}`, {
          accept: c.accept,
        });
        assert.strictEqual(r.status, 200, `${c.name}: ${r.text}`);
        if (c.accept === undefined && c.query === undefined) {
          const rv = (r.json.metadata as { resourceVersion: string }).resourceVersion;
          const items = pods.watchCache
            .list()
            .filter((e) => e.key.startsWith('/pods/default/'))
            .map((e) => goJsonMarshal(withoutTypeMeta(e.object) as unknown as GoJsonValue));
          assert.strictEqual(
            r.text,
            `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"${rv}"},"items":[${items.join(',')}]}\n`,
            c.name,
          );
        }
        assert.deepStrictEqual(cached(), before, c.name);
      }
    });

    it('pages a list with limit and continue, counting what remains', async () => {
      const pods = [];
      let token = '';
      for (let page = 0; page < 10; page++) {
        const q = `limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
        const r = await call(server, 'GET', `/api/v1/namespaces/default/pods?${q}`);
        assert.strictEqual(r.status, 200, r.text);
        const meta = r.json.metadata as { continue?: string; remainingItemCount?: number };
        pods.push(...(r.json.items as Array<{ metadata: { name: string } }>));
        if (!meta.continue) {
          assert.strictEqual(meta.remainingItemCount, undefined);
          break;
        }
        assert.strictEqual(typeof meta.remainingItemCount, 'number');
        token = meta.continue;
      }
      const all = await call(server, 'GET', '/api/v1/namespaces/default/pods');
      assert.deepStrictEqual(pods, all.json.items);
    });

    it('answers 404 for an unknown resource and 405 for a verb a resource lacks', async () => {
      const unknown = await call(server, 'GET', '/api/v1/namespaces/default/widgets');
      assert.strictEqual(unknown.status, 404);
      assert.strictEqual(unknown.json.message, 'the server could not find the requested resource');
      const r = await call(server, 'DELETE', '/api/v1/namespaces');
      assert.strictEqual(r.status, 405);
    });

    it('stores a hostile name as data and echoes it escaped as Go does', async () => {
      const r = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { ...configMap('x'), data: { html: '<script>alert(1)</script>' } },
      });
      assert.strictEqual(r.status, 201);
      assert.ok(r.text.includes('"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"'), r.text);
    });
  });
});

describe('ApiServer with a CustomResourceDefinition (--crd)', () => {
  let server: ApiServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'listwatch-crd-'));
    const file = join(dir, 'crd.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata: {name: crontabs.stable.example.com}',
        'spec:',
        '  group: stable.example.com',
        '  scope: Namespaced',
        '  names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct]}',
        '  versions:',
        '    - name: v1',
        '      served: true',
        '      storage: true',
        '      additionalPrinterColumns:',
        '        - {name: Spec, type: string, jsonPath: .spec.cronSpec}',
      ].join('\n'),
    );
    server = await ApiServer.start({ crdFiles: [file] });
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the custom resource under its group, items keeping kind and apiVersion', async () => {
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    const c = await call(server, 'POST', path, {
      body: {
        apiVersion: 'stable.example.com/v1',
        kind: 'CronTab',
        metadata: { name: 'c1' },
        spec: { cronSpec: '* * * * */5' },
      },
    });
    assert.strictEqual(c.status, 201, c.text);
    assert.strictEqual((c.json.metadata as { generation: number }).generation, 1);
    const l = await call(server, 'GET', path);
    assert.strictEqual(l.json.kind, 'CronTabList');
    const items = l.json.items as Array<Record<string, unknown>>;
    assert.deepStrictEqual(
      items.map((i) => [i.apiVersion, i.kind]),
      [['stable.example.com/v1', 'CronTab']],
    );
    const served = server.resources.find('stable.example.com', 'v1', 'crontabs');
    assert.strictEqual(
      served?.engine.objectKey('default', 'c1'),
      '/stable.example.com/crontabs/default/c1',
    );
    const kv = await server.resources.etcd.range({
      key: '/registry/stable.example.com/crontabs/default/c1',
    });
    assert.strictEqual(kv.kvs.length, 1);
    const d = await call(server, 'DELETE', `${path}/c1`);
    assert.strictEqual(d.status, 200);
    assert.strictEqual(d.json.status, 'Success');
  });
});
