// Tests for src/server/handlers/patch.ts (server-side apply) and the field manager calls of
// create.ts and update.ts against a live ApiServer, as kube-apiserver (release-1.36) answers:
// apply creates, updates and conflicts (409 naming the managers and fields), `force` takes the
// fields, the PatchOptions' 422s, an undecodable apply body's 400, a dry run writes nothing, and
// every write records its manager in metadata.managedFields.
import * as assert from 'assert';
import { ApiServer } from '../../../../src/server/api-server';
import { call, type Reply } from '../http-client';

const ns = '/api/v1/namespaces/default/configmaps';
const applyType = 'application/apply-patch+yaml';
const cmYaml = (name: string, value: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "${value}"\n`;

interface Entry {
  manager: string;
  operation: string;
  fieldsV1: unknown;
  subresource?: string;
}
const entries = (r: Reply): Entry[] =>
  (((r.json.metadata as Record<string, unknown>).managedFields ?? []) as Entry[]).map((e) => ({
    manager: e.manager,
    operation: e.operation,
    fieldsV1: e.fieldsV1,
    ...(e.subresource ? { subresource: e.subresource } : {}),
  }));
const dataA = { 'f:data': { 'f:a': {} } };
// An Update that made the map owns the map itself too (`.`); an Apply only what it applied.
const createdA = { 'f:data': { '.': {}, 'f:a': {} } };

interface Step {
  method: string;
  /** Under `ns`: `''` for the collection, `/<name>…` for the object. */
  path: string;
  body?: unknown;
  contentType?: string;
}

interface Case {
  name: string;
  /** Requests made first, each expected to succeed. */
  setup?: Step[];
  request: Step;
  status: number;
  message?: string;
  check?(r: Reply): void | Promise<void>;
}

const invalidPatchOptions = (errs: string): string =>
  `PatchOptions.meta.k8s.io "" is invalid: ${errs}`;

const cases: Case[] = [
  {
    name: 'apply creates the object, the manager owning what it applied',
    request: {
      method: 'PATCH',
      path: '/made?fieldManager=alice',
      body: cmYaml('made', '1'),
      contentType: applyType,
    },
    status: 201,
    check(r) {
      assert.deepStrictEqual(r.json.data, { a: '1' });
      assert.deepStrictEqual(entries(r), [
        { manager: 'alice', operation: 'Apply', fieldsV1: dataA },
      ]);
    },
  },
  {
    name: 'apply by the same manager updates the object',
    setup: [
      {
        method: 'PATCH',
        path: '/again?fieldManager=alice',
        body: cmYaml('again', '1'),
        contentType: applyType,
      },
    ],
    request: {
      method: 'PATCH',
      path: '/again?fieldManager=alice',
      body: cmYaml('again', '2'),
      contentType: applyType,
    },
    status: 200,
    check(r) {
      assert.deepStrictEqual(r.json.data, { a: '2' });
      assert.deepStrictEqual(entries(r), [
        { manager: 'alice', operation: 'Apply', fieldsV1: dataA },
      ]);
    },
  },
  {
    name: 'apply of a field another applier owns with another value is a 409',
    setup: [
      {
        method: 'PATCH',
        path: '/owned?fieldManager=alice',
        body: cmYaml('owned', '1'),
        contentType: applyType,
      },
    ],
    request: {
      method: 'PATCH',
      path: '/owned?fieldManager=bob',
      body: cmYaml('owned', '2'),
      contentType: applyType,
    },
    status: 409,
    message: 'Apply failed with 1 conflict: conflict with "alice": .data.a',
    check(r) {
      assert.strictEqual(r.json.reason, 'Conflict');
      assert.deepStrictEqual((r.json.details as Record<string, unknown>).causes, [
        { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' },
      ]);
    },
  },
  {
    name: 'a field an Update manager set conflicts naming its API version',
    setup: [
      {
        method: 'PATCH',
        path: '/patched?fieldManager=alice',
        body: cmYaml('patched', '1'),
        contentType: applyType,
      },
      {
        method: 'PATCH',
        path: '/patched?fieldManager=editor',
        body: { data: { a: '9' } },
        contentType: 'application/merge-patch+json',
      },
    ],
    request: {
      method: 'PATCH',
      path: '/patched?fieldManager=alice',
      body: cmYaml('patched', '1'),
      contentType: applyType,
    },
    status: 409,
    message: 'Apply failed with 1 conflict: conflict with "editor" using v1: .data.a',
  },
  {
    name: 'force takes the field from the other manager',
    setup: [
      {
        method: 'PATCH',
        path: '/forced?fieldManager=alice',
        body: cmYaml('forced', '1'),
        contentType: applyType,
      },
    ],
    request: {
      method: 'PATCH',
      path: '/forced?fieldManager=bob&force=true',
      body: cmYaml('forced', '2'),
      contentType: applyType,
    },
    status: 200,
    check(r) {
      assert.deepStrictEqual(r.json.data, { a: '2' });
      assert.deepStrictEqual(entries(r), [{ manager: 'bob', operation: 'Apply', fieldsV1: dataA }]);
    },
  },
  {
    name: 'an apply of another kind is a 400',
    request: {
      method: 'PATCH',
      path: '/kind?fieldManager=alice',
      body: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: kind\n',
      contentType: applyType,
    },
    status: 400,
    message: 'invalid object type: /v1, Kind=Secret',
  },
  {
    name: 'apply without a fieldManager is a 422',
    request: { method: 'PATCH', path: '/nofm', body: cmYaml('nofm', '1'), contentType: applyType },
    status: 422,
    message: invalidPatchOptions('fieldManager: Required value: is required for apply patch'),
  },
  {
    name: 'force on a merge patch is a 422',
    request: {
      method: 'PATCH',
      path: '/x?force=true',
      body: {},
      contentType: 'application/merge-patch+json',
    },
    status: 422,
    message: invalidPatchOptions('force: Forbidden: may not be specified for non-apply patch'),
  },
  {
    name: 'apply-patch+cbor is not served (the CBORServingAndStorage gate is off)',
    request: {
      method: 'PATCH',
      path: '/x?fieldManager=alice',
      body: '',
      contentType: 'application/apply-patch+cbor',
    },
    status: 415,
    message:
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
  },
  {
    name: 'a dry-run apply answers the object and stores nothing',
    request: {
      method: 'PATCH',
      path: '/dry?fieldManager=alice&dryRun=All',
      body: cmYaml('dry', '1'),
      contentType: applyType,
    },
    status: 201,
    async check(r) {
      assert.deepStrictEqual(entries(r), [
        { manager: 'alice', operation: 'Apply', fieldsV1: dataA },
      ]);
      assert.strictEqual((await call(server, 'GET', `${ns}/dry`)).status, 404);
    },
  },
  {
    name: 'a create records an Update entry for its fieldManager',
    request: {
      method: 'POST',
      path: '?fieldManager=creator',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'posted' }, data: { a: '1' } },
    },
    status: 201,
    check(r) {
      assert.deepStrictEqual(entries(r), [
        { manager: 'creator', operation: 'Update', fieldsV1: createdA },
      ]);
    },
  },
  {
    name: 'an update adds its manager beside the creator',
    setup: [
      {
        method: 'POST',
        path: '?fieldManager=creator',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'put' }, data: { a: '1' } },
      },
    ],
    request: {
      method: 'PUT',
      path: '/put?fieldManager=editor',
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'put' },
        data: { a: '1', b: '2' },
      },
    },
    status: 200,
    check(r) {
      assert.deepStrictEqual(entries(r), [
        { manager: 'creator', operation: 'Update', fieldsV1: createdA },
        { manager: 'editor', operation: 'Update', fieldsV1: { 'f:data': { 'f:b': {} } } },
      ]);
    },
  },
  {
    name: 'a merge patch takes the field it changed from the applier',
    setup: [
      {
        method: 'PATCH',
        path: '/merged?fieldManager=alice',
        body: cmYaml('merged', '1'),
        contentType: applyType,
      },
    ],
    request: {
      method: 'PATCH',
      path: '/merged?fieldManager=editor',
      body: { data: { a: '2' } },
      contentType: 'application/merge-patch+json',
    },
    status: 200,
    check(r) {
      assert.deepStrictEqual(entries(r), [
        { manager: 'editor', operation: 'Update', fieldsV1: dataA },
      ]);
    },
  },
];

let server: ApiServer;

describe('server-side apply and managedFields (handlers/patch.ts, create.ts, update.ts, live HTTP)', () => {
  before(async () => {
    server = await ApiServer.start({ port: 0, namespaceController: false });
  });
  after(() => server.stop());

  for (const c of cases) {
    it(c.name, async () => {
      for (const s of c.setup ?? []) {
        const r = await call(server, s.method, `${ns}${s.path}`, s.body, s.contentType);
        assert.ok(r.status < 300, `setup ${s.method} ${s.path}: ${r.text}`);
      }
      const q = c.request;
      const r = await call(server, q.method, `${ns}${q.path}`, q.body, q.contentType);
      assert.strictEqual(r.status, c.status, r.text);
      if (c.message !== undefined) assert.strictEqual(r.json.message, c.message);
      await c.check?.(r);
    });
  }
});

// The apply body's decoding, by profile: release-1.36 decodes it in applyPatchToCurrentObject
// (`error decoding YAML: …`, `error strict decoding YAML: …`); master first transcodes it for the
// audit log (validateAndTranscodePatch: `error encoding patch: …`) and says `patch` in both.
// A repeated key is go-yaml's non-strict decode (the last value wins) unless fieldValidation asks
// for the strict decode: Strict refuses it, Warn (the default) warns.
const dupYaml =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: NAME\ndata:\n  a: "1"\n  a: "2"\n  b: "3"\n  b:\n    "4"\n';
const dupErrors = '  line 7: key "a" already set in map\n  line 10: key "b" already set in map';
const decodeCases: {
  name: string;
  body: string;
  fieldValidation?: string;
  want: Record<'1.36' | '1.37', { status: number; message?: string; warnings?: string[] }>;
}[] = [
  {
    name: 'not YAML',
    body: 'a: b: c',
    want: {
      // Upstream's reason is go-yaml's (`line 1: mapping values are not allowed in this context`);
      // this server's is js-yaml's, as json-body.ts's YAML decode has it.
      '1.36': {
        status: 400,
        message: 'error decoding YAML: error converting YAML to JSON: yaml: ',
      },
      '1.37': {
        status: 400,
        message: 'error encoding patch: error converting YAML to JSON: yaml: ',
      },
    },
  },
  {
    name: 'a list',
    body: '- a\n',
    want: {
      '1.36': {
        status: 400,
        message:
          'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}',
      },
      '1.37': {
        status: 400,
        message:
          'error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}',
      },
    },
  },
  {
    name: 'repeated keys, Strict',
    body: dupYaml,
    fieldValidation: 'Strict',
    want: {
      '1.36': {
        status: 400,
        message: `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n${dupErrors}`,
      },
      '1.37': {
        status: 400,
        message: `error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n${dupErrors}`,
      },
    },
  },
  {
    name: 'repeated keys, Warn (the default)',
    body: dupYaml,
    want: {
      '1.36': {
        status: 201,
        warnings: ['line 7: key "a" already set in map', 'line 10: key "b" already set in map'],
      },
      '1.37': {
        status: 201,
        warnings: ['line 7: key "a" already set in map', 'line 10: key "b" already set in map'],
      },
    },
  },
  {
    name: 'repeated keys, Ignore',
    body: dupYaml,
    fieldValidation: 'Ignore',
    want: { '1.36': { status: 201, warnings: [] }, '1.37': { status: 201, warnings: [] } },
  },
];

for (const profile of ['1.36', '1.37'] as const)
  describe(`an apply body's decoding, profile ${profile} (applyPatcher, validateAndTranscodePatch)`, () => {
    let srv: ApiServer;
    before(async () => {
      srv = await ApiServer.start({ port: 0, namespaceController: false, profile });
    });
    after(() => srv.stop());
    decodeCases.forEach((c, i) =>
      it(c.name, async () => {
        const name = `decode-${i}`;
        const want = c.want[profile];
        const q = c.fieldValidation ? `&fieldValidation=${c.fieldValidation}` : '';
        const r = await call(
          srv,
          'PATCH',
          `${ns}/${name}?fieldManager=alice${q}`,
          c.body.replace('NAME', name),
          applyType,
        );
        assert.strictEqual(r.status, want.status, r.text);
        if (want.message !== undefined)
          if (want.message.endsWith(': '))
            assert.ok(String(r.json.message).startsWith(want.message), String(r.json.message));
          else assert.strictEqual(r.json.message, want.message);
        if (want.warnings !== undefined) assert.deepStrictEqual(r.warnings, want.warnings);
        // go-yaml's non-strict decode keeps the last value of a repeated key.
        if (want.status === 201) assert.deepStrictEqual(r.json.data, { a: '2', b: '4' });
      }),
    );
  });
