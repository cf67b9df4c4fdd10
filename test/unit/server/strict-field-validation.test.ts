// Tests for src/server/strict-field-validation.ts through decodeBody (issue #25): the strict
// decoding errors sigs.k8s.io/json reports for a built-in kind, by path and in document order
// (its kubernetes_patch_test.go cases, over the kinds' OpenAPI definitions), and what the
// fieldValidation directive makes of them: a 400 under Strict, Warning headers under Warn.
import * as assert from 'assert';
import { StatusError } from '../../../src/engine/storage/errors';
import { decodeBody } from '../../../src/server/json-body';
import { strictDecodingErrors } from '../../../src/server/strict-field-validation';

const deployment = { group: 'apps', version: 'v1', kind: 'Deployment' };

describe('server/strict-field-validation', () => {
  it('strictDecodingErrors: unknown and duplicate fields at any depth', () => {
    const cases: Array<[string, string, string[]]> = [
      ['none', '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"}}', []],
      ['top level', '{"kind":"Deployment","foo":1}', ['unknown field "foo"']],
      ['in spec', '{"spec":{"foo":1,"replicas":2}}', ['unknown field "spec.foo"']],
      [
        'in a list item',
        '{"spec":{"template":{"spec":{"containers":[{"name":"c"},{"name":"d","bar":{}}]}}}}',
        ['unknown field "spec.template.spec.containers[1].bar"'],
      ],
      ['a map accepts any key', '{"metadata":{"labels":{"anything":"x"}}}', []],
      ['in metadata', '{"metadata":{"nam":"x"}}', ['unknown field "metadata.nam"']],
      ['case matters', '{"Spec":{}}', ['unknown field "Spec"']],
      ['duplicate', '{"kind":"Deployment","kind":"Deployment"}', ['duplicate field "kind"']],
      [
        'duplicate map key',
        '{"metadata":{"labels":{"a":"1","a":"2"}}}',
        ['duplicate field "metadata.labels.a"'],
      ],
      [
        'document order, each once',
        '{"zz":1,"spec":{"b":1,"b":2},"aa":1,"zz":2}',
        [
          'unknown field "zz"',
          'unknown field "spec.b"',
          'duplicate field "spec.b"',
          'unknown field "aa"',
          'duplicate field "zz"',
        ],
      ],
      [
        'a field added after 1.27 (PodSpec.resources) is known',
        '{"spec":{"template":{"spec":{"resources":{"limits":{"cpu":"1"}},"hostnameOverride":"h"}}}}',
        [],
      ],
      [
        'free-form below RawExtension-like fields',
        '{"status":{"conditions":[{"x":1}]}}',
        ['unknown field "status.conditions[0].x"'],
      ],
    ];
    for (const [name, text, want] of cases)
      assert.deepStrictEqual(strictDecodingErrors(text, deployment), want, name);
  });

  it('decodeBody: Strict refuses with 400, Warn warns, Ignore says nothing', () => {
    const body = new TextEncoder().encode(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"foo":1,"selector":{"x":2}}}',
    );
    const expected = { ...deployment, unstructured: false };
    const cases: Array<[string, string | undefined, string[]]> = [
      [
        'Strict',
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo", unknown field "spec.selector.x"',
        [],
      ],
      ['Warn', undefined, ['unknown field "spec.foo"', 'unknown field "spec.selector.x"']],
      ['', undefined, ['unknown field "spec.foo"', 'unknown field "spec.selector.x"']],
      ['Ignore', undefined, []],
    ];
    for (const [directive, error, warnings] of cases) {
      try {
        const d = decodeBody(body, expected, { fieldValidation: directive });
        assert.strictEqual(error, undefined, `${directive}: decoded`);
        assert.deepStrictEqual(d.warnings, warnings, directive);
      } catch (e) {
        assert.ok(e instanceof StatusError, String(e));
        assert.strictEqual(e.status.code, 400, directive);
        assert.strictEqual(e.status.message, error, directive);
      }
    }
  });
});
