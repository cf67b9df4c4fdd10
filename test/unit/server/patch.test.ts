// Tests for src/server/patch.ts: what PatchResource answers (pkg/endpoints/handlers/patch.go and the Status errors it builds), and the patches real kubectl sends.
import * as assert from 'assert';
import { StatusError, statusToJSON } from '../../../src/engine/storage/errors';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { applyPatch, checkPatchContentType, type PatchResource } from '../../../src/server/patch';
import { kubectlPatches } from './kubectl-patch-fixtures';

const pods: PatchResource = { group: '', version: 'v1', kind: 'Pod', resource: 'pods' };
const widgets: PatchResource = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
};
const namespaces: PatchResource = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  resource: 'namespaces',
};

const pod = (): KubeObject =>
  ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: 'x',
      namespace: 'default',
      uid: 'u-1',
      resourceVersion: '5',
      labels: { app: 'web' },
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  }) as KubeObject;

const merge = 'application/merge-patch+json';
const json = 'application/json-patch+json';
const smp = 'application/strategic-merge-patch+json';

// The Status body the client receives for what applyPatch throws.
function statusOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, `not a StatusError: ${String(err)}`);
    return statusToJSON(err.status);
  }
  assert.fail('no error');
}

const failure = (code: number, reason: string, message: string, details?: string): string =>
  `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":${JSON.stringify(message)},` +
  (reason ? `"reason":"${reason}",` : '') +
  (details !== undefined ? `"details":${details},` : '') +
  `"code":${code}}`;

const builtinTypes =
  'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml';
const unknownFormat = (types: string): string =>
  `the body of the request was in an unknown format - accepted media types include: ${types}`;

describe('patch content types (PatchResource, installer.go, customresource_handler.go)', () => {
  // [content type, resource, accepted]
  const cases: Array<[string, PatchResource, string | undefined]> = [
    [json, pods, undefined],
    [merge, pods, undefined],
    [smp, pods, undefined],
    ['application/merge-patch+json; charset=utf-8', pods, undefined],
    [json, widgets, undefined],
    [merge, widgets, undefined],
    // A custom resource refuses strategic merge patch before any patch is read.
    [
      smp,
      widgets,
      unknownFormat(
        'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      ),
    ],
    ['application/apply-patch+yaml', pods, undefined],
    ['application/apply-patch+yaml; charset=utf-8', widgets, undefined],
    // CBOR apply needs the CBORServingAndStorage gate, off in 1.36.
    ['application/apply-patch+cbor', pods, unknownFormat(builtinTypes)],
    ['application/json', pods, unknownFormat(builtinTypes)],
    ['', pods, unknownFormat(builtinTypes)],
    // Only a `;` after the type starts parameters; the match is case-sensitive.
    [';application/merge-patch+json', pods, unknownFormat(builtinTypes)],
    ['Application/Merge-Patch+JSON', pods, unknownFormat(builtinTypes)],
  ];
  for (const [contentType, resource, message] of cases) {
    it(`${JSON.stringify(contentType)} on ${resource.resource}`, () => {
      const err = checkPatchContentType(contentType, resource);
      if (message === undefined) {
        assert.strictEqual(err, undefined);
        return;
      }
      assert.ok(err);
      assert.strictEqual(statusToJSON(err.status), failure(415, 'UnsupportedMediaType', message));
      assert.strictEqual(
        statusOf(() => applyPatch(contentType, pod(), '{}', resource)),
        failure(415, 'UnsupportedMediaType', message),
      );
    });
  }
});

describe('patch errors (jsonPatcher, smpPatcher, patcher.applyPatch, Store.Update)', () => {
  const invalidPatchDoc =
    `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ` +
    `struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
  const conflict = (resource: string): string =>
    failure(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${resource} "x": the object has been modified; please apply your changes to the latest version and try again`,
      `{"name":"x",${resource === 'pods' ? '' : '"group":"example.com",'}"kind":"${resource.split('.')[0]}"}`,
    );
  // [description, content type, resource, patch, Status body]
  const cases: Array<[string, string, PatchResource, string, string]> = [
    [
      'a failing JSON patch test: 422 without the patch library text',
      json,
      pods,
      '[{"op":"test","path":"/metadata/name","value":"y"}]',
      failure(
        422,
        'Invalid',
        'the server rejected our request due to an error in our request',
        '{}',
      ),
    ],
    [
      'a JSON patch on a missing path',
      json,
      pods,
      '[{"op":"remove","path":"/spec/nodeName"}]',
      failure(
        422,
        'Invalid',
        'the server rejected our request due to an error in our request',
        '{}',
      ),
    ],
    [
      'a JSON patch that is not JSON',
      json,
      pods,
      '[{',
      failure(400, 'BadRequest', 'unexpected end of JSON input'),
    ],
    [
      'a JSON patch that is an object',
      json,
      pods,
      '{"op":"add"}',
      failure(
        400,
        'BadRequest',
        'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
      ),
    ],
    [
      'a JSON patch of 10001 operations',
      json,
      pods,
      JSON.stringify(Array(10001).fill({ op: 'test', path: '/kind', value: 'Pod' })),
      failure(
        413,
        'RequestEntityTooLarge',
        'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
      ),
    ],
    [
      'a JSON patch replacing the whole object by an array',
      json,
      pods,
      '[{"op":"replace","path":"","value":[{"b":1,"a":"<"}]}]',
      failure(
        422,
        'Invalid',
        ` "" is invalid: patch: Invalid value: "[{\\"a\\":\\"\\\\u003c\\",\\"b\\":1}]": ${invalidPatchDoc}`,
        `{"causes":[{"reason":"FieldValueInvalid","message":${JSON.stringify(`Invalid value: "[{\\"a\\":\\"\\\\u003c\\",\\"b\\":1}]": ${invalidPatchDoc}`)},"field":"patch"}]}`,
      ),
    ],
    ['a merge patch null', merge, pods, 'null', failure(400, 'BadRequest', 'Invalid JSON Patch')],
    [
      'a merge patch that is not JSON',
      merge,
      pods,
      '{"a"',
      failure(400, 'BadRequest', 'Invalid JSON Patch'),
    ],
    ['a merge patch string', merge, pods, '"x"', failure(400, 'BadRequest', 'Invalid JSON Patch')],
    [
      'a strategic merge patch that is not JSON',
      smp,
      pods,
      '{"a":}',
      failure(400, 'BadRequest', "invalid character '}' looking for beginning of value"),
    ],
    [
      'a strategic merge patch that is an array',
      smp,
      pods,
      '[1]',
      failure(
        400,
        'BadRequest',
        'json: cannot unmarshal array into Go value of type map[string]interface {}',
      ),
    ],
    [
      'a strategic merge patch with a bad $retainKeys (ErrBadPatchFormatForRetainKeys)',
      smp,
      pods,
      '{"spec":{"$retainKeys":"x"}}',
      failure(400, 'BadRequest', 'invalid patch format of retainKeys'),
    ],
    [
      'a strategic merge patch with a bad $setElementOrder key',
      smp,
      pods,
      '{"spec":{"$setElementOrderX/containers":[]}}',
      failure(400, 'BadRequest', 'invalid patch format of setElementOrder list'),
    ],
    [
      'a strategic merge patch without a merge key: a plain error, 500',
      smp,
      pods,
      '{"spec":{"containers":[{"image":"x"}]}}',
      failure(500, '', 'map: map[image:x] does not contain declared merge key: name'),
    ],
    [
      'a patch renaming the object',
      merge,
      pods,
      '{"metadata":{"name":"y"}}',
      failure(
        400,
        'BadRequest',
        'the name of the object (y) does not match the name on the URL (x)',
      ),
    ],
    [
      'a patch removing the name',
      json,
      pods,
      '[{"op":"remove","path":"/metadata/name"}]',
      failure(
        400,
        'BadRequest',
        'the name of the object (x based on URL) was undeterminable: name must be provided',
      ),
    ],
    [
      'a patch moving the object to another namespace',
      smp,
      pods,
      '{"metadata":{"namespace":"other"}}',
      failure(
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      ),
    ],
    [
      'a stale resourceVersion: 409',
      merge,
      pods,
      '{"metadata":{"resourceVersion":"4"}}',
      conflict('pods'),
    ],
    [
      'a stale resourceVersion on a custom resource',
      merge,
      widgets,
      '{"metadata":{"resourceVersion":"4"}}',
      conflict('widgets.example.com'),
    ],
    [
      'a malformed resourceVersion: the versioner error, 500',
      json,
      pods,
      '[{"op":"replace","path":"/metadata/resourceVersion","value":"abc"}]',
      failure(500, '', 'strconv.ParseUint: parsing "abc": invalid syntax'),
    ],
  ];
  for (const [description, contentType, resource, patch, status] of cases) {
    it(description, () => {
      const current = pod();
      const before = JSON.stringify(current);
      assert.strictEqual(
        statusOf(() => applyPatch(contentType, current, patch, resource)),
        status,
      );
      assert.strictEqual(JSON.stringify(current), before, 'the stored object is not modified');
    });
  }
});

describe('patch results', () => {
  // [description, content type, resource, current, patch, expected object]
  const cases: Array<[string, string, PatchResource, KubeObject, string, unknown]> = [
    [
      'the resourceVersion it was read at passes the precondition',
      merge,
      pods,
      pod(),
      '{"metadata":{"resourceVersion":"5","labels":{"a":"b"}}}',
      { ...pod(), metadata: { ...pod().metadata, labels: { app: 'web', a: 'b' } } },
    ],
    [
      'a patch dropping the resourceVersion is unconditional: it gets the stored one back',
      merge,
      pods,
      pod(),
      '{"metadata":{"resourceVersion":null}}',
      pod(),
    ],
    [
      'a patch dropping the namespace gets the request namespace back',
      json,
      pods,
      pod(),
      '[{"op":"remove","path":"/metadata/namespace"}]',
      pod(),
    ],
    [
      'a namespace (cluster-scoped) loses a namespace the patch sets',
      merge,
      namespaces,
      {
        kind: 'Namespace',
        apiVersion: 'v1',
        metadata: { name: 'x', uid: 'u', resourceVersion: '3' },
      },
      '{"metadata":{"namespace":"x"}}',
      {
        kind: 'Namespace',
        apiVersion: 'v1',
        metadata: { name: 'x', uid: 'u', resourceVersion: '3' },
      },
    ],
    [
      'an unstructured custom resource keeps an emptied map',
      merge,
      widgets,
      {
        kind: 'Widget',
        apiVersion: 'example.com/v1',
        metadata: { name: 'x', resourceVersion: '2', labels: { a: 'b' } },
      } as KubeObject,
      '{"metadata":{"labels":{"a":null}}}',
      {
        kind: 'Widget',
        apiVersion: 'example.com/v1',
        metadata: { name: 'x', resourceVersion: '2', labels: {} },
      },
    ],
    [
      'a JSON patch on a custom resource',
      json,
      widgets,
      {
        kind: 'Widget',
        apiVersion: 'example.com/v1',
        metadata: { name: 'x', resourceVersion: '2' },
        spec: { size: 1 },
      } as KubeObject,
      '[{"op":"test","path":"/spec/size","value":1},{"op":"replace","path":"/spec/size","value":2}]',
      {
        kind: 'Widget',
        apiVersion: 'example.com/v1',
        metadata: { name: 'x', resourceVersion: '2' },
        spec: { size: 2 },
      },
    ],
  ];
  for (const [description, contentType, resource, current, patch, expected] of cases) {
    it(description, () => {
      assert.deepStrictEqual(applyPatch(contentType, current, patch, resource).object, expected);
    });
  }
});

describe('patch: what kubectl v1.32 sends (captured)', () => {
  const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
  interface PodView {
    metadata: { labels?: Record<string, string>; annotations: Record<string, string> };
    spec: Record<string, unknown>;
  }
  const run = (name: string): PodView => {
    const c = kubectlPatches[name];
    return applyPatch(c.contentType, structuredClone(c.current) as KubeObject, c.body, pods)
      .object as unknown as PodView;
  };

  it('label a=b: a merge patch adding the label', () => {
    assert.strictEqual(kubectlPatches['label a=b'].contentType, merge);
    assert.deepStrictEqual(run('label a=b').metadata.labels, { app: 'web', a: 'b' });
  });

  it('label app-: a merge patch deleting it with null', () => {
    // Emptied, the labels map is gone, as the typed Pod encodes it (omitempty).
    assert.ok(!('labels' in run('label app-').metadata));
  });

  it('annotate note=hi', () => {
    assert.deepStrictEqual(run('annotate').metadata.annotations, { note: 'hi' });
  });

  it('label --resource-version: a precondition that passes at 5 and conflicts at 6', () => {
    assert.deepStrictEqual(run('label --resource-version').metadata.labels, { app: 'web', a: 'b' });
    const c = kubectlPatches['label --resource-version'];
    const newer = structuredClone(c.current) as KubeObject;
    newer.metadata.resourceVersion = '6';
    assert.match(
      statusOf(() => applyPatch(c.contentType, newer, c.body, pods)),
      /"reason":"Conflict".*"code":409/,
    );
  });

  it('apply (first): merges containers, env and ports by key in $setElementOrder order', () => {
    const out = run('apply1');
    assert.ok(out.metadata.annotations[lastApplied].startsWith('{"apiVersion":"v1","kind":"Pod"'));
    assert.deepStrictEqual(out.metadata.labels, { app: 'web', tier: 'fe' });
    assert.deepStrictEqual(out.spec.containers, [
      {
        name: 'c',
        image: 'nginx:1.27',
        ports: [{ containerPort: 80 }, { containerPort: 443 }],
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      { image: 'busybox', name: 'side' },
    ]);
  });

  it('apply (second): $patch delete by key, a deleted label, new fields', () => {
    const out = run('apply2');
    assert.deepStrictEqual(out.metadata.labels, { app: 'web' });
    assert.deepStrictEqual(out.spec, {
      containers: [
        {
          name: 'c',
          image: 'nginx:1.28',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          env: [{ name: 'A', value: '1' }],
          volumeMounts: [{ mountPath: '/data', name: 'data' }],
        },
      ],
      nodeSelector: { disk: 'ssd' },
      volumes: [{ emptyDir: {}, name: 'data' }],
    });
  });

  it('apply of a custom resource: a merge patch replacing its list', () => {
    const c = kubectlPatches['apply widget'];
    assert.strictEqual(c.contentType, merge);
    const out = applyPatch(c.contentType, structuredClone(c.current) as KubeObject, c.body, widgets)
      .object as unknown as PodView;
    assert.deepStrictEqual(out.spec, { size: 2, tags: ['b'] });
    assert.ok(out.metadata.annotations[lastApplied].includes('"kind":"Widget"'));
  });

  it('apply (third): $retainKeys switches the volume source', () => {
    assert.deepStrictEqual(run('apply3').spec.volumes, [
      { name: 'data', hostPath: { path: '/srv' } },
    ]);
  });
});
