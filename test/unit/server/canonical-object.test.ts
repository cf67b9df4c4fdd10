// Tests for src/server/canonical-object.ts: the bytes kube-apiserver writes for a built-in (its
// Go struct's field order, maps with sorted keys) and for a custom resource (every map sorted).
import * as assert from 'assert';
import { goJsonMarshal, type GoJsonValue } from '../../../src/engine/encoding/go-json';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { canonicalObject } from '../../../src/server/canonical-object';
import type { ServedResource } from '../../../src/server/served-resource';
import { configMaps, crontabs, namespaces, pods } from './fixtures';

const bytes = (served: ServedResource, obj: unknown): string =>
  goJsonMarshal(canonicalObject(served, obj as KubeObject) as unknown as GoJsonValue);

describe('canonicalObject', () => {
  const table: Array<[string, ServedResource, unknown, string]> = [
    [
      'Namespace: metadata, spec, status (status sent first); labels sorted',
      namespaces,
      {
        status: { phase: 'Active' },
        spec: { finalizers: ['kubernetes'] },
        metadata: { labels: { 'kubernetes.io/metadata.name': 'a', app: 'x' }, name: 'a' },
      },
      '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"a","labels":{"app":"x","kubernetes.io/metadata.name":"a"}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}',
    ],
    [
      'ConfigMap: metadata, immutable, data, binaryData; data, binaryData and annotations sorted',
      configMaps,
      {
        binaryData: { z: 'AA==', b: 'AQ==' },
        data: { zeta: '1', alpha: '2', Beta: '3' },
        immutable: true,
        metadata: { annotations: { 'b/x': '1', 'a/y': '2' }, name: 'cm', namespace: 'default' },
      },
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","namespace":"default","annotations":{"a/y":"2","b/x":"1"}},"immutable":true,"data":{"Beta":"3","alpha":"2","zeta":"1"},"binaryData":{"b":"AQ==","z":"AA=="}}',
    ],
    [
      'Pod: metadata, spec, status; nodeSelector and container resources sorted',
      pods,
      {
        status: { phase: 'Pending' },
        metadata: { name: 'p', deletionTimestamp: '2026-12-01T00:00:00Z', uid: 'u' },
        spec: {
          nodeSelector: { zone: 'a', arch: 'amd64' },
          containers: [
            { name: 'c', image: 'i', resources: { limits: { memory: '1Gi', cpu: '1' } } },
          ],
        },
      },
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","uid":"u","deletionTimestamp":"2026-12-01T00:00:00Z"},"spec":{"nodeSelector":{"arch":"amd64","zone":"a"},"containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]},"status":{"phase":"Pending"}}',
    ],
    [
      'a custom resource: every map sorted, apiVersion before kind',
      crontabs,
      { metadata: { name: 'c' }, spec: { b: 1, a: { d: 1, c: 2 } } },
      '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c"},"spec":{"a":{"c":2,"d":1},"b":1}}',
    ],
  ];
  for (const [name, served, obj, want] of table)
    it(name, () => assert.strictEqual(bytes(served, obj), want));

  it('keeps fields the Go type lacks, after the known ones', () => {
    assert.strictEqual(
      bytes(configMaps, { extra: 1, data: { a: 'b' }, metadata: { name: 'x' } }),
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"},"data":{"a":"b"},"extra":1}',
    );
  });
});
