// Tests for src/server/structured-merge-diff/fields-v1.ts: sigs.k8s.io/structured-merge-diff/v6
// fieldpath/serialize-pe_test.go and serialize_test.go (v6.3.3).
import * as assert from 'assert';
import {
  deserializePathElement,
  serializePathElement,
  setFromFieldsV1,
  setToJSON,
  UnknownPathElementTypeError,
} from '../../../../src/server/structured-merge-diff/fields-v1';
import { FieldSet } from '../../../../src/server/structured-merge-diff/set';
import { makePath } from '../../../../src/server/structured-merge-diff/path-element';

describe('structured-merge-diff fields-v1 path elements (serialize-pe_test.go)', () => {
  // TestPathElementRoundTrip.
  const roundTrip = [
    `i:0`,
    `i:1234`,
    `f:`,
    `f:spec`,
    `f:more-complicated-string`,
    `f: string-with-spaces   `,
    `f:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789`,
    `k:{"name":"my-container"}`,
    `k:{"name":"   name with spaces   "}`,
    `k:{"port":"8080","protocol":"TCP"}`,
    `k:{"optionalField":null}`,
    `k:{"jsonField":{"A":1,"B":null,"C":"D","E":{"F":"G"}}}`,
    `k:{"listField":["1","2","3"]}`,
    `v:null`,
    `v:"some-string"`,
    `v:1234`,
    `v:{"some":"json"}`,
    `v:{"some":" some  with spaces  "}`,
    `k:{"name":"app-🚀"}`,
    `k:{"name":"app-💻"}`,
    `k:{"name":"app with-unicøde"}`,
    `k:{"name":"你好世界"}`,
    `k:{"name":"Привет, мир"}`,
    `k:{"name":"नमस्ते दुनिया"}`,
    `k:{"name":"👋"}`,
  ];
  for (const s of roundTrip) {
    it(`round trip ${s}`, () =>
      assert.strictEqual(serializePathElement(deserializePathElement(s)), s));
  }

  it('TestPathElementIgnoreUnknown: r:Hello is an unknown type', () =>
    assert.throws(() => deserializePathElement('r:Hello'), UnknownPathElementTypeError));

  // TestDeserializePathElementError.
  const bad = [
    ``,
    `no-colon`,
    `i:index is not a number`,
    `i:1.23`,
    `i:`,
    `v:invalid json`,
    `v:`,
    `k:invalid json`,
    `k:{"name":invalid}`,
    `v:{"some":" \\x41"}`,
  ];
  for (const s of bad) {
    it(`error for ${JSON.stringify(s)}`, () =>
      assert.throws(
        () => deserializePathElement(s),
        (e: unknown) => e instanceof Error && !(e instanceof UnknownPathElementTypeError),
      ));
  }
});

describe('structured-merge-diff fields-v1 sets (serialize_test.go)', () => {
  // TestSerializeV1GoldenData (the first and third examples) and the normalized forms of
  // TestDeserializeForValidNonNormalized: [input, what ToJSON writes].
  const golden: Array<[string, string]> = [
    [
      `{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}`,
      '',
    ],
    [
      `{"f:spec":{".":{},"f:apps":{".":{},"k:{\\"name\\":\\" app-💻\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port 🔑\\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}},"k:{\\"name\\":\\" app-🚀\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port-✅ \\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}}}}}`,
      '',
    ],
    [
      `{"f:aad": {}, "f:aaa": {}, "f:aab": {}, "k:{ \\"protocol\\":\\"udp\\",\\"port\\":443}": {}, "k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}": {}, "v: 3": {}, "v:\\"aa\\"": {}, "v:true": {}, "i:4": {}, "i:1": {}}`,
      `{"f:aaa":{},"f:aab":{},"f:aad":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:3":{},"v:\\"aa\\"":{},"v:true":{},"i:1":{},"i:4":{}}`,
    ],
    // An unknown element type is skipped; "." alone marks the parent.
    [`{"f:a":{".":{},"r:x":{}},"f:b":{}}`, `{"f:a":{},"f:b":{}}`],
  ];
  for (const [input, want] of golden) {
    it(`golden ${input.slice(0, 60)}`, () =>
      assert.strictEqual(setToJSON(setFromFieldsV1(JSON.parse(input))), want || input));
  }

  // The FieldsV1 kube-apiserver writes for a Deployment applied by kubectl (its shape: members,
  // "." for a member with children, list-map keys).
  it('a deployment field set serializes as kube-apiserver writes it', () => {
    const c = { key: { name: 'c' } };
    const port = { key: { containerPort: 80, protocol: 'TCP' } };
    const set = FieldSet.of(
      makePath('metadata', 'labels', 'app'),
      makePath('spec', 'replicas'),
      makePath('spec', 'template', 'spec', 'containers', c),
      makePath('spec', 'template', 'spec', 'containers', c, 'name'),
      makePath('spec', 'template', 'spec', 'containers', c, 'image'),
      makePath('spec', 'template', 'spec', 'containers', c, 'ports', port),
      makePath('spec', 'template', 'spec', 'containers', c, 'ports', port, 'containerPort'),
      makePath('metadata', 'finalizers', { value: 'x' }),
    );
    assert.strictEqual(
      setToJSON(set),
      '{"f:metadata":{"f:finalizers":{"v:\\"x\\"":{}},"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}',
    );
  });

  // TestSerializeV1: random sets round-trip (a fixed seed instead of math/rand).
  it('random sets round-trip', () => {
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const element = (): Parameters<typeof makePath>[0] => {
      switch (rand(4)) {
        case 0:
          return ['aaa', 'aab', 'aac', 'aad', 'aae', 'aaf'][rand(6)];
        case 1:
          return [
            { key: { name: 'first' } },
            { key: { name: 'second' } },
            { key: { port: 443, protocol: 'tcp' } },
          ][rand(3)];
        case 2:
          return { value: [1, 2, 3, 'aa', 'ab', true][rand(6)] };
        default:
          return rand(4) + 1;
      }
    };
    for (let i = 0; i < 200; i++) {
      const x = new FieldSet();
      for (let j = 0; j < 50; j++)
        x.insert(makePath(...Array.from({ length: 2 + rand(4) }, element)));
      const json = setToJSON(x);
      const x2 = setFromFieldsV1(JSON.parse(json));
      assert.ok(x2.equals(x), `failed to reproduce original:\n${json}\n${setToJSON(x2)}`);
    }
  });
});
