// Tests for src/server/delete-options.ts: a DELETE's options as k8s.io/apiserver
// pkg/endpoints/handlers/delete.go (release-1.36) decodes and validates them, with the exact 400
// and 422 texts; and, against a live ApiServer, that a body that fails either deletes nothing.
import * as assert from 'assert';
import { StatusError } from '../../../src/engine/storage/errors';
import { ApiServer } from '../../../src/server/api-server';
import { decodeDeleteOptions, type DeleteOptions } from '../../../src/server/delete-options';
import { call } from './http-client';

const noQuery = new Map<string, string[]>();
const findKind =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const typeError = (value: string, field: string, type: string): string =>
  `json: cannot unmarshal ${value} into Go struct field DeleteOptions.${field} of type ${type}`;
const invalid = (errs: string): string => `DeleteOptions.meta.k8s.io "" is invalid: ${errs}`;

// [case, body, the options, or [code, message]]
const cases: Array<[string, string, DeleteOptions | [number, string]]> = [
  ['empty object', '{}', {}],
  ['null', 'null', {}],
  [
    'every field, kind and apiVersion of either group',
    '{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0,"preconditions":{"uid":"u","resourceVersion":"5"},"propagationPolicy":"Foreground","dryRun":["All"]}',
    {
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u', resourceVersion: '5' },
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    },
  ],
  ['keys are case-sensitive (kjson)', '{"GracePeriodSeconds":"x","DryRun":"y"}', {}],
  ['null fields are nil', '{"gracePeriodSeconds":null,"preconditions":null}', {}],
  [
    'a syntax error',
    '{"gracePeriodSeconds":',
    [400, "couldn't get version/kind; json parse error: unexpected end of JSON input"],
  ],
  [
    'not an object',
    '["All"]',
    [
      400,
      `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${findKind}`,
    ],
  ],
  [
    'gracePeriodSeconds a string',
    '{"gracePeriodSeconds":"0"}',
    [400, typeError('string', 'gracePeriodSeconds', 'int64')],
  ],
  [
    'gracePeriodSeconds a fraction',
    '{"gracePeriodSeconds":1.5}',
    [400, typeError('number 1.5', 'gracePeriodSeconds', 'int64')],
  ],
  ['dryRun a string', '{"dryRun":"All"}', [400, typeError('string', 'dryRun', '[]string')]],
  ['dryRun holding a number', '{"dryRun":[1]}', [400, typeError('number', 'dryRun', 'string')]],
  [
    'orphanDependents a string',
    '{"orphanDependents":"true"}',
    [400, typeError('string', 'orphanDependents', 'bool')],
  ],
  [
    'propagationPolicy a number',
    '{"propagationPolicy":1}',
    [400, typeError('number', 'propagationPolicy', 'v1.DeletionPropagation')],
  ],
  [
    'preconditions a string',
    '{"preconditions":"x"}',
    [400, typeError('string', 'preconditions', 'v1.Preconditions')],
  ],
  [
    'preconditions.uid a number',
    '{"preconditions":{"uid":5}}',
    [400, typeError('number', 'preconditions.uid', 'types.UID')],
  ],
  [
    'the first type error in document order',
    '{"orphanDependents":1,"gracePeriodSeconds":"x"}',
    [400, typeError('number', 'orphanDependents', 'bool')],
  ],
  [
    'dryRun Foo',
    '{"dryRun":["Foo"]}',
    [422, invalid('dryRun: Unsupported value: ["Foo"]: supported values: "All"')],
  ],
  [
    'a null dryRun value is ""',
    '{"dryRun":[null]}',
    [422, invalid('dryRun: Unsupported value: [""]: supported values: "All"')],
  ],
];

describe('DeleteOptions (src/server/delete-options.ts, handlers/delete.go)', () => {
  for (const [name, body, want] of cases)
    it(name, () => {
      if (!Array.isArray(want)) {
        assert.deepStrictEqual(decodeDeleteOptions(Buffer.from(body), noQuery), want);
        return;
      }
      assert.throws(
        () => decodeDeleteOptions(Buffer.from(body), noQuery),
        (e: unknown) =>
          e instanceof StatusError && e.status.code === want[0] && e.status.message === want[1],
      );
    });

  it("a protobuf body (client-go's typed clients: Helm's purge of its release Secrets) reads as the options it encodes", () => {
    // k8s\0, runtime.Unknown{typeMeta{apiVersion "v1", kind "DeleteOptions"}, raw}, raw being
    // DeleteOptions{gracePeriodSeconds: 0, propagationPolicy: "Background"}.
    const str = (field: number, text: string): number[] => [
      (field << 3) | 2,
      text.length,
      ...Buffer.from(text),
    ];
    const msg = (field: number, bytes: number[]): number[] => [
      (field << 3) | 2,
      bytes.length,
      ...bytes,
    ];
    const raw = [(1 << 3) | 0, 0, ...str(4, 'Background')];
    const body = Buffer.from([
      0x6b,
      0x38,
      0x73,
      0x00,
      ...msg(1, [...str(1, 'v1'), ...str(2, 'DeleteOptions')]),
      ...msg(2, raw),
    ]);
    const protobuf = 'application/vnd.kubernetes.protobuf';
    assert.deepStrictEqual(decodeDeleteOptions(body, noQuery, protobuf), {
      gracePeriodSeconds: 0,
      propagationPolicy: 'Background',
    });
    assert.throws(
      () => decodeDeleteOptions(body.subarray(0, body.length - 3), noQuery, protobuf),
      (e: unknown) => e instanceof StatusError && e.status.code === 400,
    );
  });

  it('the query: orphanDependents converts as Convert_Slice_string_To_Pointer_bool (never an error)', () => {
    const q = (v: string): Map<string, string[]> => new Map([['orphanDependents', [v]]]);
    assert.deepStrictEqual(
      ['0', 'false', 'FALSE', '1', 'yes', ''].map(
        (v) => decodeDeleteOptions(Buffer.alloc(0), q(v)).orphanDependents,
      ),
      [false, false, false, true, true, true],
    );
  });

  describe('a DELETE whose body fails deletes nothing (live HTTP)', () => {
    let server: ApiServer;
    before(async () => {
      server = await ApiServer.start({ port: 0, namespaceController: false });
    });
    after(() => server.stop());
    const cms = '/api/v1/namespaces/default/configmaps';
    for (const [name, body, want] of cases.filter(([, , w]) => Array.isArray(w)))
      it(name, async () => {
        const [code, message] = want as [number, string];
        const cm = `del-${Math.abs(hash(name))}`;
        const c = await call(server, 'POST', cms, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: cm },
        });
        assert.strictEqual(c.status, 201, c.text);
        const d = await call(server, 'DELETE', `${cms}/${cm}`, body);
        assert.deepStrictEqual([d.status, d.json.message], [code, message], d.text);
        const g = await call(server, 'GET', `${cms}/${cm}`);
        assert.deepStrictEqual(g.json, c.json);
      });
  });
});

// A stable name per case.
function hash(s: string): number {
  let h = 0;
  for (const ch of s) h = (h * 31 + (ch.codePointAt(0) ?? 0)) | 0;
  return h;
}
