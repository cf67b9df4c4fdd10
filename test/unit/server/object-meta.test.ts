// Tests for src/server/object-meta.ts and the registry's rest.BeforeCreate/BeforeUpdate
// (registry/rest-create.ts, rest-update.ts), Store.Update's resourceVersion rules and the kinds'
// strategies (registry/<kind>-strategy.ts) with ValidateObjectMeta, with the messages kube-apiserver (release-1.36)
// answers; some cases follow apimachinery pkg/api/validation/objectmeta_test.go.
import * as assert from 'assert';
import { StatusError, statusToJSON } from '../../../src/engine/storage/errors';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { SeededRandom } from '../../../src/engine/rand';
import {
  alphanums,
  formatTime,
  generateName,
  maskTrailingDash,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  newUUID,
  validateObjectMetaAccessor,
  validateObjectMetaAccessorUpdate,
} from '../../../src/server/object-meta';
import { beforeCreate } from '../../../src/server/registry/rest-create';
import { beforeUpdate } from '../../../src/server/registry/rest-update';
import { checkUpdateResourceVersion } from '../../../src/server/registry/store';
import { configMapStrategy } from '../../../src/server/registry/configmap-strategy';
import { customResourceStrategy } from '../../../src/server/registry/customresource-strategy';
import { namespaceStrategy } from '../../../src/server/registry/namespace-strategy';
import { podStrategy } from '../../../src/server/registry/pod-strategy';
import type { ObjectStrategy } from '../../../src/server/registry/strategy';

const now = Date.UTC(2026, 11, 1, 13, 20, 23, 456);
const env = (): { now: number; rand: SeededRandom } => ({ now, rand: new SeededRandom(7) });
const container = { name: 'c', image: 'nginx' };
const pod = (meta: Record<string, unknown>): KubeObject =>
  ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: meta,
    spec: { containers: [container] },
  }) as KubeObject;

function createFailure(strategy: ObjectStrategy, obj: KubeObject, ns = 'default'): StatusError {
  try {
    beforeCreate(strategy, obj, ns, env());
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('accepted');
}

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('server/object-meta', () => {
  describe('names', () => {
    it('NameIsDNSSubdomain / NameIsDNSLabel', () => {
      assert.deepStrictEqual(nameIsDNSSubdomain('Bad_Name', false), [subdomainMsg]);
      assert.deepStrictEqual(nameIsDNSSubdomain('a.b', false), []);
      assert.deepStrictEqual(nameIsDNSLabel('a.b', false), ['must not contain dots']);
      assert.deepStrictEqual(nameIsDNSLabel('A', false), [labelMsg]);
      assert.deepStrictEqual(nameIsDNSLabel('x'.repeat(64), false), [
        'must be no more than 63 bytes',
      ]);
      assert.deepStrictEqual(nameIsDNSSubdomain('x'.repeat(254), false), [
        'must be no more than 253 bytes',
      ]);
    });
    it('a generateName may end in a dash (maskTrailingDash, as upstream writes it)', () => {
      assert.strictEqual(maskTrailingDash('web-'), 'wea');
      assert.strictEqual(maskTrailingDash('-'), '-');
      assert.deepStrictEqual(nameIsDNSSubdomain('web-', true), []);
      assert.deepStrictEqual(nameIsDNSSubdomain('web-', false), [subdomainMsg]);
    });
    it('GenerateName: 5 characters of the alphabet, base cut to 58', () => {
      const rand = new SeededRandom(1);
      const n = generateName('web-', rand);
      assert.match(n, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.strictEqual(alphanums, 'bcdfghjklmnpqrstvwxz2456789');
      const long = generateName('x'.repeat(70), rand);
      assert.strictEqual(long.length, 63);
      assert.ok(long.startsWith('x'.repeat(58)));
      assert.strictEqual(generateName('web-', new SeededRandom(1)), n, 'same seed, same name');
    });
    it('NewUUID: version 4 and the RFC 4122 variant', () => {
      assert.match(
        newUUID(new SeededRandom(3)),
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    });
    it('metav1.Time: RFC 3339, UTC, whole seconds', () => {
      assert.strictEqual(formatTime(now), '2026-12-01T13:20:23Z');
    });
  });

  describe('ValidateObjectMetaAccessor (objectmeta_test.go)', () => {
    const cases: {
      name: string;
      meta: Record<string, unknown>;
      namespaced?: boolean;
      want: string[];
    }[] = [
      { name: 'valid', meta: { name: 'test', namespace: 'foo' }, want: [] },
      {
        name: 'no name',
        meta: { namespace: 'foo' },
        want: ['metadata.name: Required value: name or generateName is required'],
      },
      {
        name: 'bad generateName',
        meta: { name: 'a', generateName: 'foo_', namespace: 'foo' },
        want: [`metadata.generateName: Invalid value: "foo_": ${subdomainMsg}`],
      },
      {
        name: 'namespace required',
        meta: { name: 'test' },
        want: ['metadata.namespace: Required value'],
      },
      {
        name: 'bad namespace',
        meta: { name: 'test', namespace: 'foo.bar' },
        want: ['metadata.namespace: Invalid value: "foo.bar": must not contain dots'],
      },
      {
        name: 'namespace on a cluster-scoped kind',
        meta: { name: 'test', namespace: 'foo' },
        namespaced: false,
        want: ['metadata.namespace: Forbidden: not allowed on this type'],
      },
      {
        name: 'negative generation',
        meta: { name: 'test', namespace: 'foo', generation: -1 },
        want: ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'],
      },
      {
        name: 'bad label key and value',
        meta: { name: 'test', namespace: 'foo', labels: { 'a b': 'c d' } },
        want: [
          `metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
          `metadata.labels: Invalid value: "c d": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
        ],
      },
      {
        name: 'annotation keys are checked lower-cased',
        meta: { name: 'test', namespace: 'foo', annotations: { 'Example.COM/Key': 'v' } },
        want: [],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const got = validateObjectMetaAccessor(c.meta, c.namespaced ?? true, nameIsDNSSubdomain);
        assert.deepStrictEqual(
          got.map((e) => e.message),
          c.want,
        );
      });
    }
  });

  describe('BeforeCreate', () => {
    it('wipes deletionTimestamp and deletionGracePeriodSeconds a client sent (WipeObjectMetaSystemFields)', () => {
      const obj = beforeCreate(
        configMapStrategy,
        {
          metadata: {
            name: 'c',
            deletionTimestamp: '2020-01-01T00:00:00Z',
            deletionGracePeriodSeconds: 5,
          },
        } as unknown as KubeObject,
        'default',
        env(),
      );
      const meta = obj.metadata as Record<string, unknown>;
      assert.deepStrictEqual(
        [meta.deletionTimestamp, meta.deletionGracePeriodSeconds],
        [undefined, undefined],
      );
    });

    it('refuses a finalizer that is no qualified name, and orphan with foregroundDeletion', () => {
      assert.throws(
        () =>
          beforeCreate(
            configMapStrategy,
            {
              metadata: { name: 'c', finalizers: ['a/b/c', 'orphan', 'foregroundDeletion'] },
            } as unknown as KubeObject,
            'default',
            env(),
          ),
        (e: StatusError) =>
          e.status.message ===
          "ConfigMap \"c\" is invalid: [metadata.finalizers: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName'), metadata.finalizers: Invalid value: [\"a/b/c\",\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set]",
      );
    });

    it('sets uid, creationTimestamp, generation 1 and the pod phase; keeps Go field order', () => {
      const obj = beforeCreate(
        podStrategy,
        pod({ labels: { a: 'b' }, name: 'web' }),
        'default',
        env(),
      );
      const meta = obj.metadata as Record<string, unknown>;
      assert.deepStrictEqual(Object.keys(meta), [
        'name',
        'namespace',
        'uid',
        'generation',
        'creationTimestamp',
        'labels',
      ]);
      assert.strictEqual(meta.creationTimestamp, '2026-12-01T13:20:23Z');
      assert.strictEqual(meta.generation, 1);
      assert.strictEqual(meta.namespace, 'default');
      assert.deepStrictEqual((obj as unknown as { status: unknown }).status, {
        phase: 'Pending',
        qosClass: 'BestEffort',
      });
      const again = beforeCreate(podStrategy, pod({ name: 'web' }), 'default', env());
      assert.strictEqual(again.metadata.uid, meta.uid, 'same seed, same uid');
    });
    it('generateName', () => {
      const obj = beforeCreate(podStrategy, pod({ generateName: 'web-' }), 'default', env());
      assert.match(obj.metadata.name ?? '', /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.strictEqual(obj.metadata.generateName, 'web-');
    });
    it('Bad_Name: the Invalid Status kube-apiserver answers', () => {
      assert.strictEqual(
        statusToJSON(createFailure(podStrategy, pod({ name: 'Bad_Name' })).status),
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Pod \\"Bad_Name\\" is invalid: metadata.name: Invalid value: \\"Bad_Name\\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')","reason":"Invalid","details":{"name":"Bad_Name","kind":"Pod","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \\"Bad_Name\\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')","field":"metadata.name"}]},"code":422}',
      );
    });
    it('no name and no generateName', () => {
      assert.strictEqual(
        createFailure(podStrategy, pod({})).status.message,
        'Pod "" is invalid: metadata.name: Required value: name or generateName is required',
      );
    });
    it('a pod without containers', () => {
      const obj = { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p' } } as KubeObject;
      assert.strictEqual(
        createFailure(podStrategy, obj).status.message,
        'Pod "p" is invalid: spec.containers: Required value',
      );
      const noImage = pod({ name: 'p' });
      (noImage as unknown as { spec: unknown }).spec = { containers: [{ name: 'c' }] };
      assert.strictEqual(
        createFailure(podStrategy, noImage).status.message,
        'Pod "p" is invalid: spec.containers[0].image: Required value',
      );
    });
    it("a namespace in the body that is not the request's", () => {
      const e = createFailure(podStrategy, pod({ name: 'p', namespace: 'other' }));
      assert.deepStrictEqual(
        [e.status.code, e.status.message],
        [
          400,
          'the namespace of the provided object does not match the namespace sent on the request',
        ],
      );
    });
    it('a name with a slash fails the path-segment rule for a custom resource only after its own', () => {
      const crs = customResourceStrategy('example.com', 'v1', 'Widget', true);
      const w = {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'a/b' },
      } as KubeObject;
      assert.strictEqual(
        createFailure(crs, w).status.message,
        `Widget.example.com "a/b" is invalid: metadata.name: Invalid value: "a/b": ${subdomainMsg}`,
      );
    });
    it('configmaps: DNS subdomain names, no generation', () => {
      const cm = beforeCreate(
        configMapStrategy,
        { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a.b' } } as KubeObject,
        'ns',
        env(),
      );
      assert.strictEqual(cm.metadata.generation, undefined);
      assert.strictEqual(
        createFailure(configMapStrategy, {
          kind: 'ConfigMap',
          apiVersion: 'v1',
          metadata: { name: 'A' },
        } as KubeObject).status.message,
        `ConfigMap "A" is invalid: metadata.name: Invalid value: "A": ${subdomainMsg}`,
      );
    });
    it('namespaces: DNS label names, cluster-scoped, phase Active, the kubernetes finalizer', () => {
      const ns = beforeCreate(
        namespaceStrategy,
        { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'team-a' } } as KubeObject,
        '',
        env(),
      ) as unknown as { metadata: Record<string, unknown>; spec: unknown; status: unknown };
      assert.strictEqual(ns.metadata.namespace, undefined);
      assert.deepStrictEqual(ns.spec, { finalizers: ['kubernetes'] });
      assert.deepStrictEqual(ns.status, { phase: 'Active' });
      assert.strictEqual(
        createFailure(
          namespaceStrategy,
          { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'a.b' } } as KubeObject,
          '',
        ).status.message,
        'Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots',
      );
    });
    it('a custom resource of another kind: Invalid under its own kind', () => {
      const crs = customResourceStrategy('example.com', 'v1', 'Widget', true);
      const e = createFailure(crs, {
        apiVersion: 'example.com/v1',
        kind: 'Gadget',
        metadata: { name: 'g' },
      } as KubeObject);
      assert.strictEqual(
        e.status.message,
        'Gadget.example.com "g" is invalid: kind: Invalid value: "Gadget": must be Widget',
      );
      const ok = beforeCreate(
        crs,
        { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } as KubeObject,
        'ns',
        env(),
      );
      assert.strictEqual(ok.metadata.generation, 1);
    });
  });

  describe('Store.Update resourceVersion rules (checkUpdateResourceVersion)', () => {
    const pods = { group: '', resource: 'pods' };
    const widgets = { group: 'example.com', resource: 'widgets' };
    it('pods, configmaps, namespaces: AllowUnconditionalUpdate', () => {
      for (const s of [podStrategy, configMapStrategy, namespaceStrategy])
        assert.strictEqual(checkUpdateResourceVersion(s, pods, 'x', 0n, 7n), 'unconditional');
    });
    it('a matching resourceVersion', () => {
      assert.strictEqual(checkUpdateResourceVersion(podStrategy, pods, 'x', 7n, 7n), 'conditional');
    });
    it('a stale resourceVersion: the optimistic lock Conflict', () => {
      assert.throws(
        () => checkUpdateResourceVersion(podStrategy, pods, 'x', 6n, 7n),
        (e: unknown) =>
          e instanceof StatusError &&
          e.status.code === 409 &&
          e.status.message ===
            'Operation cannot be fulfilled on pods "x": the object has been modified; please apply your changes to the latest version and try again',
      );
    });
    it('a custom resource without one: 422 naming the resource', () => {
      const crs = customResourceStrategy('example.com', 'v1', 'Widget', true);
      assert.throws(
        () => checkUpdateResourceVersion(crs, widgets, 'w', 0n, 7n),
        (e: unknown) =>
          e instanceof StatusError &&
          statusToJSON(e.status) ===
            '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"widgets.example.com \\"w\\" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update","reason":"Invalid","details":{"name":"w","group":"example.com","kind":"widgets","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: 0: must be specified for an update","field":"metadata.resourceVersion"}]},"code":422}',
      );
    });
  });

  describe('BeforeUpdate', () => {
    const stored = (): KubeObject => {
      const p = pod({ name: 'web', namespace: 'default' });
      beforeCreate(podStrategy, p, 'default', env());
      p.metadata.resourceVersion = '7';
      return p;
    };
    it('keeps uid, creationTimestamp, generation and status; a spec change bumps generation', () => {
      const old = stored();
      const next = pod({ name: 'web', resourceVersion: '7', labels: { a: 'b' } });
      beforeUpdate(podStrategy, next, old, 'default');
      assert.strictEqual(next.metadata.uid, old.metadata.uid);
      assert.strictEqual(next.metadata.creationTimestamp, old.metadata.creationTimestamp);
      assert.strictEqual(next.metadata.generation, 1);
      assert.deepStrictEqual((next as unknown as { status: unknown }).status, {
        phase: 'Pending',
        qosClass: 'BestEffort',
      });
      const changed = pod({ name: 'web', resourceVersion: '7' });
      (changed as unknown as { spec: unknown }).spec = {
        containers: [{ name: 'c', image: 'nginx:2' }],
      };
      beforeUpdate(podStrategy, changed, old, 'default');
      assert.strictEqual(changed.metadata.generation, 2);
    });
    it('a changed uid is immutable', () => {
      assert.throws(
        () =>
          beforeUpdate(
            podStrategy,
            pod({ name: 'web', resourceVersion: '7', uid: 'other' }),
            stored(),
            'default',
          ),
        (e: unknown) =>
          e instanceof StatusError &&
          e.status.message ===
            'Pod "web" is invalid: metadata.uid: Invalid value: "other": field is immutable',
      );
    });
    it('ValidateObjectMetaAccessorUpdate (objectmeta_test.go)', () => {
      const old = { name: 'a', namespace: 'n', uid: 'u', generation: 2, resourceVersion: '1' };
      assert.deepStrictEqual(
        validateObjectMetaAccessorUpdate({ ...old, resourceVersion: '' }, old).map(
          (e) => e.message,
        ),
        ['metadata.resourceVersion: Invalid value: "": must be specified for an update'],
      );
      assert.deepStrictEqual(
        validateObjectMetaAccessorUpdate({ ...old, generation: 1 }, old).map((e) => e.message),
        ['metadata.generation: Invalid value: 1: must not be decremented'],
      );
      assert.deepStrictEqual(
        validateObjectMetaAccessorUpdate({ ...old, name: 'b', namespace: 'm' }, old).map(
          (e) => e.message,
        ),
        [
          'metadata.name: Invalid value: "b": field is immutable',
          'metadata.namespace: Invalid value: "m": field is immutable',
        ],
      );
    });
    it('a custom resource: generation follows changes outside metadata', () => {
      const crs = customResourceStrategy('example.com', 'v1', 'Widget', true);
      const old = {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w', namespace: 'ns', generation: 1, resourceVersion: '3' },
        spec: { a: 1 },
      } as KubeObject;
      const same: KubeObject = {
        ...old,
        metadata: { name: 'w', resourceVersion: '3', labels: { x: 'y' } },
      };
      beforeUpdate(crs, same, old, 'ns');
      assert.strictEqual(same.metadata.generation, 1);
      const changed = {
        ...old,
        metadata: { name: 'w', resourceVersion: '3' },
        spec: { a: 2 },
      } as KubeObject;
      beforeUpdate(crs, changed, old, 'ns');
      assert.strictEqual(changed.metadata.generation, 2);
    });
  });
});
