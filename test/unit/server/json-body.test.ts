// Tests for src/server/json-body.ts: the 400/413/415 bodies kube-apiserver (release-1.36
// handlers/create.go + rest.go transformDecodeError, serializer/json) answers for a bad request body.
import * as assert from 'assert';
import { StatusError, statusToJSON } from '../../../src/engine/storage/errors';
import { LimitedBody, maxRequestBodyBytes } from '../../../src/server/filters/body-limit';
import {
  decodeBody,
  negotiateInputMediaType,
  builtinBodyMediaTypes,
  type DecodeBodyOptions,
  type ExpectedKind,
} from '../../../src/server/json-body';

const pod: ExpectedKind = { group: '', version: 'v1', kind: 'Pod', unstructured: false };
const widget: ExpectedKind = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  unstructured: true,
};
const configMap: ExpectedKind = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  unstructured: false,
};
const namespace: ExpectedKind = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  unstructured: false,
};
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function failure(body: string, expected: ExpectedKind, opts: DecodeBodyOptions = {}): StatusError {
  try {
    decodeBody(enc(body), expected, opts);
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail(`${body}: accepted`);
}

const badRequest = (message: string): string =>
  `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":${JSON.stringify(
    message,
  )
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')},"reason":"BadRequest","code":400}`;

describe('server/json-body', () => {
  describe('what a bad body answers', () => {
    const cases: {
      name: string;
      body: string;
      expected?: ExpectedKind;
      opts?: DecodeBodyOptions;
      message: string;
    }[] = [
      {
        name: 'truncated JSON',
        body: '{"a":',
        message:
          'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"a":)',
      },
      {
        name: 'truncated JSON with a kind',
        body: '{"kind":"Pod",',
        message:
          'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"kind":"Pod",)',
      },
      {
        name: 'a bad character, summarized to 30 bytes',
        body: '{"metadata":{"name":"a-rather-long-name"} x}',
        message:
          'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: invalid character \'x\' after object key:value pair ({"metadata":{"name":"a-rather- ...)',
      },
      {
        name: 'not JSON at all: summarized as hex',
        body: 'hello',
        message:
          "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character 'h' looking for beginning of value (68656c6c6f)",
      },
      {
        name: 'an empty body',
        body: '',
        message:
          "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
      },
      {
        name: 'a top-level array',
        body: '[]',
        message:
          'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b5d)',
      },
      {
        name: 'a kind that is not a string',
        body: '{"kind":5}',
        message:
          'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})',
      },
      {
        name: 'an apiVersion with two slashes',
        body: '{"apiVersion":"a/b/c","kind":"Pod"}',
        message:
          'the object provided is unrecognized (must be of type Pod): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c","kind":" ...)',
      },
      {
        name: 'a kind the scheme does not know',
        body: '{"apiVersion":"v1","kind":"pod"}',
        message:
          'pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
      },
      {
        name: 'another known kind',
        body: '{"apiVersion":"v1","kind":"ConfigMap"}',
        opts: { knownKinds: ['/v1/ConfigMap', '/v1/Pod'] },
        message:
          'ConfigMap in version "v1" cannot be handled as a Pod: converting (v1.ConfigMap) to (core.Pod): unknown conversion',
      },
      {
        name: 'a Pod in another group',
        body: '{"apiVersion":"apps/v1","kind":"Pod"}',
        message:
          'Pod in version "v1" cannot be handled as a Pod: no kind "Pod" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
      },
      {
        name: 'a group without a version',
        body: '{"apiVersion":"apps/","kind":"Pod","metadata":{}}',
        message:
          'Pod in version "" cannot be handled as a Pod: Object \'apiVersion\' is missing in \'{"apiVersion":"apps/","kind":"Pod","metadata":{}}\'',
      },
      {
        name: 'a name that is a number',
        body: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":5}}',
        message:
          'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
      },
      {
        name: 'metadata that is a string',
        body: '{"kind":"Pod","apiVersion":"v1","metadata":"x"}',
        message:
          'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta',
      },
      {
        name: 'a label value that is a bool',
        body: '{"metadata":{"labels":{"a":true}}}',
        message:
          'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string',
      },
      {
        name: 'a fractional generation',
        body: '{"metadata":{"generation":1.5}}',
        message:
          'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64',
      },
      {
        name: 'unknown fields under fieldValidation=Strict',
        body: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x","nme":"y"},"spek":{}}',
        opts: { fieldValidation: 'Strict' },
        message:
          'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "metadata.nme", unknown field "spek"',
      },
      {
        name: 'a custom resource without a kind',
        body: '{"metadata":{"name":"x"}}',
        expected: widget,
        message:
          'Widget in version "v1" cannot be handled as a Widget: Object \'Kind\' is missing in \'{"metadata":{"name":"x"}}\'',
      },
      {
        name: 'a custom resource of another version',
        body: '{"apiVersion":"example.com/v2","kind":"Widget"}',
        expected: widget,
        message:
          'the API version in the data (example.com/v2) does not match the expected API version (example.com/v1)',
      },
      {
        name: 'a number in ConfigMap.data',
        body: '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},"data":{"a":1}}',
        expected: configMap,
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
      },
      {
        name: 'ConfigMap.data that is an array',
        body: '{"data":["a"]}',
        expected: configMap,
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string',
      },
      {
        name: 'ConfigMap.immutable that is a string',
        body: '{"immutable":"yes"}',
        expected: configMap,
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool',
      },
      {
        name: 'binaryData that is not base64',
        body: '{"binaryData":{"b":"AA*A"}}',
        expected: configMap,
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 2',
      },
      {
        name: 'binaryData cut short of a quantum',
        body: '{"binaryData":{"b":"AAAAAA"}}',
        expected: configMap,
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 4',
      },
      {
        name: 'the first error in document order wins (data before metadata)',
        body: '{"data":{"a":true},"metadata":{"name":5}}',
        expected: configMap,
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string',
      },
      {
        name: 'a Namespace finalizer that is a number',
        body: '{"kind":"Namespace","apiVersion":"v1","spec":{"finalizers":[1]}}',
        expected: namespace,
        message:
          'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal number into Go struct field NamespaceSpec.spec.finalizers of type v1.FinalizerName',
      },
      {
        name: 'a Namespace spec that is a string',
        body: '{"spec":"x"}',
        expected: namespace,
        message:
          'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal string into Go struct field Namespace.spec of type v1.NamespaceSpec',
      },
      {
        name: 'a Namespace phase that is a number',
        body: '{"status":{"phase":1}}',
        expected: namespace,
        message:
          'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal number into Go struct field NamespaceStatus.status.phase of type v1.NamespacePhase',
      },
      {
        name: 'invalid YAML',
        body: 'a: [',
        opts: { contentType: 'application/yaml' },
        message:
          'the object provided is unrecognized (must be of type Pod): error converting YAML to JSON: yaml: unexpected end of the stream within a flow collection (613a205b)',
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        assert.strictEqual(
          statusToJSON(failure(c.body, c.expected ?? pod, c.opts).status),
          badRequest(c.message),
        );
      });
    }
  });

  describe('Content-Type (NegotiateInputSerializer)', () => {
    const body415 =
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf","reason":"UnsupportedMediaType","code":415}';
    for (const ct of [
      'text/plain',
      'application/merge-patch+json',
      'garbage',
      'application/json; x',
    ]) {
      it(`${ct}: 415`, () => {
        assert.strictEqual(statusToJSON(failure('{}', pod, { contentType: ct }).status), body415);
      });
    }
    it('a custom resource lists no protobuf', () => {
      assert.ok(
        failure('{}', widget, { contentType: 'text/plain' }).status.message?.endsWith(
          'include: application/json, application/yaml',
        ),
      );
    });
    it('parameters and case are ignored; empty means JSON', () => {
      assert.strictEqual(
        negotiateInputMediaType('Application/JSON; charset=utf-8', builtinBodyMediaTypes),
        'application/json',
      );
      assert.strictEqual(
        negotiateInputMediaType(undefined, builtinBodyMediaTypes),
        'application/json',
      );
      assert.strictEqual(negotiateInputMediaType('', builtinBodyMediaTypes), 'application/json');
    });
  });

  describe('accepted bodies', () => {
    it("a Pod without kind and apiVersion takes the endpoint's", () => {
      const d = decodeBody(enc('{"metadata":{"name":"x"},"spec":{}}'), pod);
      assert.deepStrictEqual(d.object, {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { name: 'x' },
        spec: {},
      });
      assert.deepStrictEqual([d.group, d.version, d.kind, d.warnings], ['', 'v1', 'Pod', []]);
    });
    it('Interpret matches keys case-insensitively, as encoding/json does', () => {
      const d = decodeBody(enc('{"KIND":"Pod","ApiVersion":"v1","metadata":{}}'), pod, {
        fieldValidation: 'Ignore',
      });
      assert.strictEqual(d.kind, 'Pod');
    });
    it('unknown fields are warnings by default, nothing under Ignore', () => {
      const body = enc('{"kind":"Pod","apiVersion":"v1","metadata":{"x":1},"y":2}');
      assert.deepStrictEqual(decodeBody(body, pod).warnings, [
        'unknown field "metadata.x"',
        'unknown field "y"',
      ]);
      assert.deepStrictEqual(decodeBody(body, pod, { fieldValidation: 'Ignore' }).warnings, []);
    });
    it('null is an empty object', () => {
      assert.deepStrictEqual(decodeBody(enc('null'), pod).object, {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: {},
      });
    });
    it('YAML', () => {
      const d = decodeBody(enc('kind: Pod\napiVersion: v1\nmetadata:\n  name: y\n'), pod, {
        contentType: 'application/yaml',
      });
      assert.strictEqual(d.object.metadata.name, 'y');
    });
    it('a custom resource is kept as sent', () => {
      const d = decodeBody(
        enc(
          '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"a":1}}',
        ),
        widget,
      );
      assert.deepStrictEqual(d.object, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { a: 1 },
      });
    });
    it('a hostile name is data', () => {
      const d = decodeBody(enc('{"metadata":{"name":"<script>alert(1)</script>"}}'), pod);
      assert.strictEqual(d.object.metadata.name, '<script>alert(1)</script>');
    });
  });

  describe('LimitedBody (limitedReadBody)', () => {
    it('the limit itself is allowed, one byte more is a 413', () => {
      const b = new LimitedBody(4);
      assert.strictEqual(b.push(enc('ab')), undefined);
      assert.strictEqual(b.push(enc('cd')), undefined);
      assert.deepStrictEqual(new TextDecoder().decode(b.bytes()), 'abcd');
      const err = b.push(enc('e'));
      assert.ok(err);
      assert.strictEqual(
        statusToJSON(err.status),
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Request entity too large: limit is 4","reason":"RequestEntityTooLarge","code":413}',
      );
    });
    it('the default limit is 3 MiB', () => {
      assert.strictEqual(maxRequestBodyBytes, 3145728);
      const b = new LimitedBody();
      assert.strictEqual(b.push(new Uint8Array(3145728)), undefined);
      assert.strictEqual(
        b.push(new Uint8Array(1))?.status.message,
        'Request entity too large: limit is 3145728',
      );
    });
    it('a limit of 0 reads everything', () => {
      assert.strictEqual(new LimitedBody(0).push(new Uint8Array(10)), undefined);
    });
  });
});
