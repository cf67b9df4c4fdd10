// Tests for src/server/field-manager.ts: rest.go's managerOrUserAgent and prefixFromUserAgent
// (kube-apiserver release-1.36), and the kind's type found in the server's OpenAPI definitions.
import * as assert from 'assert';
import {
  fieldManagerScope,
  managerOrUserAgent,
  prefixFromUserAgent,
} from '../../../src/server/field-manager';
import { parseCrdManifest } from '../../../src/server/crd';
import { deducedParseableType } from '../../../src/server/structured-merge-diff';
import { configMaps, crontabs, pods } from './fixtures';

describe('managerOrUserAgent (rest.go)', () => {
  // [fieldManager, User-Agent, manager]
  const cases: Array<[string | undefined, string, string]> = [
    ['mine', 'kubectl/v1.35.0 (linux/amd64) kubernetes/abc', 'mine'],
    [undefined, 'kubectl/v1.35.0 (linux/amd64) kubernetes/abc', 'kubectl'],
    ['', 'kube-controller-manager/v1.36.0', 'kube-controller-manager'],
    [undefined, 'no-slash', 'no-slash'],
    [undefined, '', ''],
    // Unprintable characters are dropped; the prefix stops at 128 bytes.
    [undefined, 'a\tb\u0000c/1', 'abc'],
    [undefined, `${'x'.repeat(127)}é/1`, 'x'.repeat(127)],
  ];
  for (const [manager, userAgent, want] of cases)
    it(`${JSON.stringify(manager)} ${JSON.stringify(userAgent.slice(0, 40))}`, () => {
      assert.strictEqual(managerOrUserAgent(manager, userAgent), want);
    });

  it('prefixFromUserAgent keeps a 128-byte prefix whole', () => {
    assert.strictEqual(prefixFromUserAgent(`${'y'.repeat(130)}/1`), 'y'.repeat(128));
  });
});

// A CRD's openAPIV3Schema: its own named type, metadata as ObjectMeta.
const withSchema = {
  ...crontabs,
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          ports: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
        },
      },
    },
  },
};

describe('fieldManagerScope: the kind type from the OpenAPI definitions', () => {
  // [resource, subresource, named type or 'deduced']
  const cases: Array<[typeof pods, string, string]> = [
    [pods, '', 'io.k8s.api.core.v1.Pod'],
    [configMaps, 'status', 'io.k8s.api.core.v1.ConfigMap'],
    [crontabs, '', 'deduced'],
    [withSchema, '', 'stable.example.com.v1.CronTab'],
  ];
  for (const [served, subresource, want] of cases)
    it(`${served.resource} ${subresource}`, () => {
      const scope = fieldManagerScope(served, subresource);
      assert.strictEqual(scope.kind, served.kind);
      assert.strictEqual(scope.subresource, subresource);
      if (want === 'deduced') assert.strictEqual(scope.type, deducedParseableType);
      else assert.deepStrictEqual(scope.type.typeRef, { namedType: want });
    });
});

describe('a CRD manifest’s openAPIV3Schema reaches the field manager (crd.ts)', () => {
  const manifest = (schema: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
${schema}`;
  // [schema lines, named type or 'deduced']
  const cases: Array<[string, string]> = [
    ['    schema:\n      openAPIV3Schema:\n        type: object\n', 'example.com.v1.Widget'],
    ['', 'deduced'],
  ];
  for (const [schema, want] of cases)
    it(want, () => {
      const [crd] = parseCrdManifest(manifest(schema), 'crd.yaml');
      const scope = fieldManagerScope({
        ...crontabs,
        group: 'example.com',
        kind: 'Widget',
        openAPIV3Schema: crd.openAPIV3Schema,
      });
      if (want === 'deduced') assert.strictEqual(scope.type, deducedParseableType);
      else assert.deepStrictEqual(scope.type.typeRef, { namedType: want });
    });
});
