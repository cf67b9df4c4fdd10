// Tests that a built-in kind's unknown fields are dropped before it is stored, as the codec's
// decoding into the Go struct drops them (apimachinery's json serializer), whatever fieldValidation
// said: Warn (the default) warns and drops, Ignore drops silently, Strict refuses. Create, update
// and merge patch, top level and nested (a container's field, a list item), while maps keep every
// key (labels, data). No upstream counterpart as a test; the behaviour is
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers (create.go, update.go, patch.go).
import * as assert from 'assert';
import { ApiServer } from '../../../src/server/api-server';

const configmaps = '/api/v1/namespaces/default/configmaps';
const deployments = '/apis/apps/v1/namespaces/default/deployments';

describe("a built-in kind's unknown fields are dropped before it is stored", function () {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0 });
  });
  after(async () => {
    await server?.stop();
  });
  const call = async (method: string, url: string, body?: unknown, contentType?: string) => {
    const r = await fetch(`${server.url}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        'content-type': contentType ?? 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: r.status,
      warnings: r.headers.get('warning') ?? '',
      body: (await r.json()) as Record<string, unknown>,
    };
  };

  const cases: Array<{
    name: string;
    validation: '' | 'Warn' | 'Ignore';
    warned: boolean;
  }> = [
    { name: 'no fieldValidation (Warn): warned and dropped', validation: '', warned: true },
    { name: 'Warn: warned and dropped', validation: 'Warn', warned: true },
    { name: 'Ignore: dropped silently', validation: 'Ignore', warned: false },
  ];
  for (const c of cases)
    it(`create, update and merge patch of a ConfigMap: ${c.name}`, async () => {
      const q = c.validation ? `?fieldValidation=${c.validation}` : '';
      const name = `cm-${c.validation || 'default'}`.toLowerCase();
      const created = await call('POST', `${configmaps}${q}`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, labels: { 'any-key': 'kept' }, bogus: 1 },
        data: { 'any-key': 'kept' },
        foo: 'bar',
      });
      assert.strictEqual(created.status, 201, JSON.stringify(created.body));
      assert.strictEqual(
        /unknown field \\"foo\\"/.test(created.warnings),
        c.warned,
        created.warnings,
      );
      const stored = (await call('GET', `${configmaps}/${name}`)).body;
      assert.strictEqual('foo' in stored, false, JSON.stringify(stored));
      const meta = stored.metadata as Record<string, unknown>;
      assert.strictEqual('bogus' in meta, false, JSON.stringify(meta));
      assert.deepStrictEqual(
        [meta.labels, stored.data],
        [{ 'any-key': 'kept' }, { 'any-key': 'kept' }],
      );
      const updated = await call('PUT', `${configmaps}/${name}${q}`, { ...stored, more: 1 });
      assert.strictEqual(updated.status, 200, JSON.stringify(updated.body));
      assert.strictEqual('more' in updated.body, false, JSON.stringify(updated.body));
      const patched = await call(
        'PATCH',
        `${configmaps}/${name}${q}`,
        { data: { b: 'c' }, patched: true },
        'application/merge-patch+json',
      );
      assert.strictEqual(patched.status, 200, JSON.stringify(patched.body));
      assert.strictEqual('patched' in patched.body, false, JSON.stringify(patched.body));
      const again = (await call('GET', `${configmaps}/${name}`)).body;
      assert.deepStrictEqual(Object.keys(again).sort(), ['apiVersion', 'data', 'kind', 'metadata']);
    });

  it("a Deployment's unknown field inside a list item (a container) is dropped, its siblings kept", async () => {
    const created = await call('POST', deployments, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx', imageTypo: 'nginx:2' }] },
        },
      },
    });
    assert.strictEqual(created.status, 201, JSON.stringify(created.body));
    assert.match(
      created.warnings,
      /unknown field \\"spec.template.spec.containers\[0\].imageTypo\\"/,
    );
    const container = (
      created.body.spec as { template: { spec: { containers: Record<string, unknown>[] } } }
    ).template.spec.containers[0];
    assert.deepStrictEqual(
      [container.name, container.image, 'imageTypo' in container],
      ['web', 'nginx', false],
    );
  });

  it('Strict refuses the create, and nothing is stored', async () => {
    const refused = await call('POST', `${configmaps}?fieldValidation=Strict`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'strict' },
      foo: 'bar',
    });
    assert.strictEqual(refused.status, 400, JSON.stringify(refused.body));
    assert.match(String(refused.body.message), /strict decoding error: unknown field "foo"/);
    assert.strictEqual((await call('GET', `${configmaps}/strict`)).status, 404);
  });
});
