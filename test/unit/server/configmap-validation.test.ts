// Tests for src/server/configmap-validation.ts through the ConfigMap strategy (issue #22 item 12):
// ValidateConfigMap and ValidateConfigMapUpdate (kubernetes pkg/apis/core/validation) and
// IsConfigMapKey (apimachinery pkg/util/validation, its TestIsConfigMapKey cases), with the
// messages kube-apiserver (release-1.36) answers; then the same over HTTP, where a body's
// unpaired surrogate escape decodes to U+FFFD as in Go.
import * as assert from 'assert';
import { StatusError } from '../../../src/engine/storage/errors';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { SeededRandom } from '../../../src/engine/rand';
import { ApiServer } from '../../../src/server/api-server';
import { isConfigMapKey, maxSecretSize } from '../../../src/server/configmap-validation';
import { beforeCreate } from '../../../src/server/registry/rest-create';
import { beforeUpdate } from '../../../src/server/registry/rest-update';
import { configMapStrategy } from '../../../src/server/registry/configmap-strategy';

const keyMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

const configMap = (fields: Record<string, unknown>): KubeObject =>
  ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x' }, ...fields }) as KubeObject;

function createError(obj: KubeObject): StatusError | undefined {
  try {
    beforeCreate(configMapStrategy, obj, 'default', { now: 0, rand: new SeededRandom(1) });
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  return undefined;
}

function updateError(obj: KubeObject, old: KubeObject): StatusError | undefined {
  try {
    beforeUpdate(configMapStrategy, obj, old, 'default');
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  return undefined;
}

describe('server/configmap-validation', () => {
  it('IsConfigMapKey: upstream TestIsConfigMapKey and the messages', () => {
    const cases: [string, string[]][] = [
      ['a', []],
      ['good', []],
      ['good-good', []],
      ['still.good', []],
      ['this.is.also.good', []],
      ['.so.is.this', []],
      ['THIS_IS_GOOD', []],
      ['so_is_this_17', []],
      ['__proto__', []],
      ['x'.repeat(253), []],
      ['.', ["must not be '.'"]],
      ['..', ["must not be '..'"]],
      ['..bad', ["must not start with '..'"]],
      ['b*d', [keyMsg]],
      ['bad!&bad', [keyMsg]],
      ['a b', [keyMsg]],
      ['../x', [keyMsg, "must not start with '..'"]],
      ['', [keyMsg]],
      ['\ufffd', [keyMsg]],
      ['x'.repeat(254), ['must be no more than 253 characters']],
      ['é'.repeat(127), ['must be no more than 253 characters', keyMsg]],
    ];
    for (const [key, want] of cases)
      assert.deepStrictEqual(isConfigMapKey(key), want, JSON.stringify(key));
  });

  it('ValidateConfigMap on create: keys, duplicates and the 1 MiB total, exact text', () => {
    const big = (n: number): string => 'x'.repeat(n);
    const cases: { name: string; fields: Record<string, unknown>; message?: string }[] = [
      { name: 'good keys', fields: { data: { a: '1', '.b': '2' }, binaryData: { c: 'AAE=' } } },
      {
        name: 'a space',
        fields: { data: { 'a b': '1' } },
        message: `ConfigMap "x" is invalid: data[a b]: Invalid value: "a b": ${keyMsg}`,
      },
      {
        name: 'a way out of the directory',
        fields: { data: { '../x': '1' } },
        message: `ConfigMap "x" is invalid: [data[../x]: Invalid value: "../x": ${keyMsg}, data[../x]: Invalid value: "../x": must not start with '..']`,
      },
      {
        name: 'dot dot, in binaryData',
        fields: { binaryData: { '..': 'AA==' } },
        message: `ConfigMap "x" is invalid: binaryData[..]: Invalid value: "..": must not be '..'`,
      },
      {
        name: 'the same key in data and binaryData',
        fields: { data: { k: 'v' }, binaryData: { k: 'dg==' } },
        message: `ConfigMap "x" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData`,
      },
      { name: 'exactly 1 MiB of data', fields: { data: { a: big(maxSecretSize) } } },
      {
        name: 'one byte over 1 MiB',
        fields: { data: { a: big(maxSecretSize - 1), b: 'é' } },
        message: `ConfigMap "x" is invalid: []: Too long: may not be more than 1048576 bytes`,
      },
      {
        name: 'data and decoded binaryData together over 1 MiB',
        fields: { data: { a: big(maxSecretSize - 2) }, binaryData: { b: 'AAAA' } },
        message: `ConfigMap "x" is invalid: []: Too long: may not be more than 1048576 bytes`,
      },
      {
        name: 'annotations over 256 KiB (ValidateObjectMeta, the same field.TooLong)',
        fields: { metadata: { name: 'x', annotations: { a: big(256 * 1024) } } },
        message: `ConfigMap "x" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes`,
      },
      { name: 'binaryData counted decoded', fields: { binaryData: { b: big(1398100) } } },
    ];
    for (const c of cases) {
      const err = createError(configMap(c.fields));
      assert.strictEqual(err?.status.message, c.message, c.name);
      if (err) assert.strictEqual(err.status.code, 422, c.name);
    }
  });

  it('the size error is a cause on the empty path, as upstream reports the whole object', () => {
    const err = createError(configMap({ data: { a: 'x'.repeat(maxSecretSize + 1) } }));
    assert.deepStrictEqual(err?.status.details?.causes, [
      {
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 1048576 bytes',
        field: '[]',
      },
    ]);
  });

  it('ValidateConfigMapUpdate: an immutable ConfigMap keeps immutable, data and binaryData; keys checked again', () => {
    const meta = { name: 'x', namespace: 'default', resourceVersion: '5', uid: 'u' };
    const old = configMap({ metadata: meta, immutable: true, data: { a: '1' } });
    const immutable = 'field is immutable when `immutable` is set';
    const cases: {
      name: string;
      fields: Record<string, unknown>;
      old?: Record<string, unknown>;
      message?: string;
    }[] = [
      { name: 'unchanged', fields: { immutable: true, data: { a: '1' } } },
      {
        name: 'data changed',
        fields: { immutable: true, data: { a: '2' } },
        message: `ConfigMap "x" is invalid: data: Forbidden: ${immutable}`,
      },
      {
        name: 'an empty stored map reads back as nil: leaving it out is no change',
        fields: { immutable: true, data: { a: '1' } },
        old: { binaryData: {} },
      },
      {
        name: 'immutable dropped, binaryData added',
        fields: { data: { a: '1' }, binaryData: {} },
        message: `ConfigMap "x" is invalid: [immutable: Forbidden: ${immutable}, binaryData: Forbidden: ${immutable}]`,
      },
    ];
    for (const c of cases) {
      const err = updateError(configMap({ metadata: { ...meta }, ...c.fields }), {
        ...old,
        ...c.old,
      } as KubeObject);
      assert.strictEqual(err?.status.message, c.message, c.name);
    }
    const mutable = configMap({ metadata: meta, data: { a: '1' } });
    assert.strictEqual(
      updateError(configMap({ metadata: { ...meta }, data: { 'a b': '1' } }), mutable)?.status
        .message,
      `ConfigMap "x" is invalid: data[a b]: Invalid value: "a b": ${keyMsg}`,
    );
  });

  describe('over HTTP', () => {
    let server: ApiServer;
    before(async () => {
      server = await ApiServer.start({ port: 0 });
    });
    after(async () => {
      await server.stop();
    });
    const post = async (body: string): Promise<{ status: number; text: string }> => {
      const r = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body,
      });
      return { status: r.status, text: await r.text() };
    };

    it('an unpaired surrogate escape in a key is U+FFFD, an invalid key (422, as Go decodes it)', async () => {
      const r = await post(
        '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"sur"},"data":{"\\ud800":"v"}}',
      );
      assert.strictEqual(r.status, 422, r.text);
      assert.strictEqual(
        JSON.parse(r.text).message,
        `ConfigMap "sur" is invalid: data[\ufffd]: Invalid value: "\ufffd": ${keyMsg}`,
      );
      // Go writes U+FFFD as its UTF-8 bytes, not as an escape.
      assert.ok(r.text.includes('data[\ufffd]'), r.text);
    });

    it('an unpaired surrogate escape in a value is stored as U+FFFD; a pair stays one character', async () => {
      const r = await post(
        '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"sur2"},"data":{"a":"x\\udc00y","b":"\\ud83d\\ude00"}}',
      );
      assert.strictEqual(r.status, 201, r.text);
      assert.ok(r.text.includes('"data":{"a":"x\ufffdy","b":"\u{1f600}"}'), r.text);
    });

    it('2.9 MB of data is refused with 422, not stored', async () => {
      const r = await post(
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"huge"},"data":{"a":"${'x'.repeat(2_900_000)}"}}`,
      );
      assert.strictEqual(r.status, 422, r.text.slice(0, 200));
      assert.strictEqual(
        JSON.parse(r.text).message,
        'ConfigMap "huge" is invalid: []: Too long: may not be more than 1048576 bytes',
      );
    });
  });
});
