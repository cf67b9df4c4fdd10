// Tests for src/server/registry/dry-run.ts and the options step of the write handlers (create.ts,
// update.ts, patch.ts, delete.ts) against a live ApiServer: `?dryRun=All` answers what would be
// stored as kube-apiserver (release-1.36) does, and nothing is written: etcd's revision does not
// move, the stored object is unchanged, and a watcher sees nothing before the next real write.
// Invalid options are the handlers' 422 (validation.ValidateCreateOptions and its siblings).
import * as assert from 'assert';
import { ApiServer } from '../../../src/server/api-server';
import { call, openWatch, type Reply } from './http-client';

const ns = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { app: 'a' } },
  data: { a: '1' },
  ...extra,
});
const meta = (r: Reply): Record<string, unknown> => r.json.metadata as Record<string, unknown>;
const invalidOptions = (kind: string, errs: string): string =>
  `${kind}.meta.k8s.io "" is invalid: ${errs}`;
const conflictMessage = (name: string): string =>
  `Operation cannot be fulfilled on configmaps "${name}": the object has been modified; please apply your changes to the latest version and try again`;

interface Case {
  name: string;
  method: string;
  /** The request's path under `ns`, given the object the case starts from (`name`, its RV). */
  path(name: string): string;
  body?(name: string, rv: string): unknown;
  contentType?: string;
  status: number;
  check?(r: Reply, name: string, rv: string): void;
  message?(name: string): string;
}

const cases: Case[] = [
  {
    name: 'create answers the object with a uid and no resourceVersion',
    method: 'POST',
    path: () => '?dryRun=All',
    body: () => cm('dry-new'),
    status: 201,
    check(r) {
      assert.strictEqual(meta(r).name, 'dry-new');
      assert.match(String(meta(r).uid), /^[0-9a-f-]{36}$/);
      assert.match(String(meta(r).creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.strictEqual(meta(r).resourceVersion, undefined);
      assert.deepStrictEqual(r.json.data, { a: '1' });
    },
  },
  {
    name: 'create with generateName answers a generated name',
    method: 'POST',
    path: () => '?dryRun=All',
    body: () => ({ ...cm(''), metadata: { generateName: 'gen-' } }),
    status: 201,
    check(r) {
      assert.match(String(meta(r).name), /^gen-[a-z0-9]{5}$/);
      assert.strictEqual(meta(r).resourceVersion, undefined);
    },
  },
  {
    name: 'create of a taken name is AlreadyExists',
    method: 'POST',
    path: () => '?dryRun=All',
    body: (name) => cm(name),
    status: 409,
    message: (name) => `configmaps "${name}" already exists`,
  },
  {
    name: 'update answers the new object at the current resourceVersion',
    method: 'PUT',
    path: (name) => `/${name}?dryRun=All`,
    body: (name, rv) => ({
      ...cm(name, { data: { a: '2' } }),
      metadata: { name, resourceVersion: rv },
    }),
    status: 200,
    check(r, name, rv) {
      assert.deepStrictEqual([meta(r).name, meta(r).resourceVersion], [name, rv]);
      assert.deepStrictEqual(r.json.data, { a: '2' });
    },
  },
  {
    name: 'update with a stale resourceVersion is a Conflict',
    method: 'PUT',
    path: (name) => `/${name}?dryRun=All`,
    body: (name) => ({ ...cm(name), metadata: { name, resourceVersion: '1' } }),
    status: 409,
    message: conflictMessage,
  },
  {
    name: 'merge patch',
    method: 'PATCH',
    path: (name) => `/${name}?dryRun=All`,
    body: () => ({ data: { a: '3' } }),
    contentType: 'application/merge-patch+json',
    status: 200,
    check(r, _name, rv) {
      assert.deepStrictEqual([r.json.data, meta(r).resourceVersion], [{ a: '3' }, rv]);
    },
  },
  {
    name: 'JSON patch',
    method: 'PATCH',
    path: (name) => `/${name}?dryRun=All`,
    body: () => [{ op: 'add', path: '/data/b', value: '4' }],
    contentType: 'application/json-patch+json',
    status: 200,
    check(r) {
      assert.deepStrictEqual(r.json.data, { a: '1', b: '4' });
    },
  },
  {
    name: 'strategic merge patch (kubectl label --dry-run=server)',
    method: 'PATCH',
    path: (name) => `/${name}?dryRun=All&fieldManager=kubectl-label`,
    body: () => ({ metadata: { labels: { tier: 'x' } } }),
    contentType: 'application/strategic-merge-patch+json',
    status: 200,
    check(r) {
      assert.deepStrictEqual(meta(r).labels, { app: 'a', tier: 'x' });
    },
  },
  {
    name: 'delete answers Success and leaves the object',
    method: 'DELETE',
    path: (name) => `/${name}?dryRun=All`,
    status: 200,
    check(r) {
      assert.strictEqual(r.json.status, 'Success');
    },
  },
  {
    name: 'delete with a stale precondition is a Conflict',
    method: 'DELETE',
    path: (name) => `/${name}`,
    body: () => ({ dryRun: ['All'], preconditions: { resourceVersion: '1' } }),
    status: 409,
  },
  {
    name: 'update of a missing object is NotFound',
    method: 'PUT',
    path: (name) => `/${name}-missing?dryRun=All`,
    body: (name) => cm(`${name}-missing`),
    status: 404,
    message: (name) => `configmaps "${name}-missing" not found`,
  },
  {
    name: 'patch of a missing object is NotFound',
    method: 'PATCH',
    path: (name) => `/${name}-missing?dryRun=All`,
    body: () => ({ data: { a: '3' } }),
    contentType: 'application/merge-patch+json',
    status: 404,
    message: (name) => `configmaps "${name}-missing" not found`,
  },
  // The options step (item 2): 422 before anything is decoded or written.
  {
    name: 'create with dryRun=Foo',
    method: 'POST',
    path: () => '?dryRun=Foo',
    body: () => cm('dry-foo'),
    status: 422,
    message: () =>
      invalidOptions(
        'CreateOptions',
        'dryRun: Unsupported value: ["Foo"]: supported values: "All"',
      ),
  },
  {
    name: 'create with a 200-character fieldManager',
    method: 'POST',
    path: () => `?fieldManager=${'m'.repeat(200)}`,
    body: () => cm('dry-fm'),
    status: 422,
    message: () =>
      invalidOptions('CreateOptions', 'fieldManager: Too long: may not be more than 128 bytes'),
  },
  {
    name: 'update with fieldValidation=Bogus',
    method: 'PUT',
    path: (name) => `/${name}?fieldValidation=Bogus`,
    body: (name) => ({ ...cm(name, { data: { a: '5' } }) }),
    status: 422,
    message: () =>
      invalidOptions(
        'UpdateOptions',
        'fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"',
      ),
  },
  {
    name: 'patch with a 129-byte fieldManager',
    method: 'PATCH',
    path: (name) => `/${name}?fieldManager=${'m'.repeat(129)}`,
    body: () => ({ data: { a: '6' } }),
    contentType: 'application/merge-patch+json',
    status: 422,
    message: () =>
      invalidOptions('PatchOptions', 'fieldManager: Too long: may not be more than 128 bytes'),
  },
  {
    name: 'an unsupported Content-Type answers before the options',
    method: 'POST',
    path: () => '?dryRun=Foo',
    body: () => cm('dry-ct'),
    contentType: 'text/plain',
    status: 415,
  },
  {
    name: 'patch with force',
    method: 'PATCH',
    path: (name) => `/${name}?force=true`,
    body: () => ({ data: { a: '7' } }),
    contentType: 'application/merge-patch+json',
    status: 422,
    message: () =>
      invalidOptions('PatchOptions', 'force: Forbidden: may not be specified for non-apply patch'),
  },
];

describe('dry run and write options (src/server/dry-run.ts, write-options.ts, live HTTP)', () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0, namespaceController: false });
    assert.strictEqual((await call(server, 'POST', ns, cm('sentinel'))).status, 201);
  });
  after(() => server.stop());

  it('an update that empties the finalizers of an object being deleted deletes nothing', async () => {
    const created = await call(
      server,
      'POST',
      ns,
      cm('dry-final', { metadata: { name: 'dry-final', finalizers: ['x/y'] } }),
    );
    assert.strictEqual(created.status, 201, created.text);
    const marked = await call(server, 'DELETE', `${ns}/dry-final`);
    assert.strictEqual(marked.status, 200, marked.text);
    const revision = server.resources.etcd.currentRevision();
    const u = await call(server, 'PUT', `${ns}/dry-final?dryRun=All`, {
      ...marked.json,
      metadata: { ...meta(marked), finalizers: [] },
    });
    assert.strictEqual(u.status, 200, u.text);
    assert.strictEqual(server.resources.etcd.currentRevision(), revision, 'etcd revision');
    const stored = await call(server, 'GET', `${ns}/dry-final`);
    assert.deepStrictEqual(stored.json, marked.json);
  });

  cases.forEach((c, i) => {
    it(`${c.name}: writes nothing`, async () => {
      const name = `dry-${i}`;
      const created = await call(server, 'POST', ns, cm(name));
      assert.strictEqual(created.status, 201, created.text);
      const rv = String(meta(created).resourceVersion);
      const revision = server.resources.etcd.currentRevision();
      const watch = await openWatch(server, `${ns}?watch=1&resourceVersion=${rv}`);
      try {
        const r = await call(
          server,
          c.method,
          ns + c.path(name),
          c.body?.(name, rv),
          c.contentType,
        );
        assert.strictEqual(r.status, c.status, r.text);
        if (c.message) assert.strictEqual(r.json.message, c.message(name));
        c.check?.(r, name, rv);

        assert.strictEqual(server.resources.etcd.currentRevision(), revision, 'etcd revision');
        const stored = await call(server, 'GET', `${ns}/${name}`);
        assert.deepStrictEqual(stored.json, created.json, 'stored object');
        for (const other of ['dry-new', 'dry-foo', 'dry-fm'])
          assert.strictEqual((await call(server, 'GET', `${ns}/${other}`)).status, 404, other);
        // Events arrive in revision order: the next real write is the first thing the watcher sees.
        const p = await call(
          server,
          'PATCH',
          `${ns}/sentinel`,
          { data: { n: String(i) } },
          'application/merge-patch+json',
        );
        assert.strictEqual(p.status, 200, p.text);
        const first = await watch.next();
        assert.deepStrictEqual(
          [first.type, (first.object.metadata as { name: string }).name],
          ['MODIFIED', 'sentinel'],
        );
      } finally {
        watch.req.destroy();
      }
    });
  });
});
