// protobuf-body.ts: the k8s\0 + runtime.Unknown envelope and the ConfigMap / Namespace messages, from
// bytes encoded here field by field as gogo-protobuf writes them.
import * as assert from 'assert';
import { protobufBodyToObject } from '../../../src/server/protobuf-body';
import { StatusError } from '../../../src/engine/storage/errors';
import { bool, bytes, entry, envelope, str } from './protobuf-wire';

describe('protobufBodyToObject', () => {
  it('a ConfigMap: metadata (name, namespace, labels), data, binaryData, immutable', () => {
    const meta = [...str(1, 'cfg'), ...str(3, 'shop'), ...entry(11, 'app', 'web')];
    const raw = [
      ...bytes(1, meta),
      ...entry(2, 'a', 'b'),
      ...entry(2, 'c', 'd'),
      ...bytes(3, [...str(1, 'bin'), ...bytes(2, [0, 1, 255])]),
      ...bool(4, true),
    ];
    assert.deepStrictEqual(protobufBodyToObject(envelope('v1', 'ConfigMap', raw)), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'shop', labels: { app: 'web' } },
      data: { a: 'b', c: 'd' },
      binaryData: { bin: 'AAH/' },
      immutable: true,
    });
  });

  it('a Namespace: generateName, finalizers in spec, an empty status', () => {
    const raw = [...bytes(1, str(2, 'team-')), ...bytes(2, str(1, 'kubernetes')), ...bytes(3, [])];
    assert.deepStrictEqual(protobufBodyToObject(envelope('v1', 'Namespace', raw)), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { generateName: 'team-' },
      spec: { finalizers: ['kubernetes'] },
      status: {},
    });
  });

  it('a body without the k8s prefix, or cut short, is a 400 naming what was expected', () => {
    assert.throws(
      () => protobufBodyToObject(new TextEncoder().encode('{"kind":"ConfigMap"}')),
      (e: unknown) =>
        e instanceof StatusError &&
        e.status.code === 400 &&
        e.status.message ===
          'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
    const cut = envelope('v1', 'ConfigMap', [...str(1, 'x')]).subarray(0, 9);
    assert.throws(
      () => protobufBodyToObject(cut),
      (e: unknown) => e instanceof StatusError && e.status.message === 'unexpected EOF',
    );
  });
});
