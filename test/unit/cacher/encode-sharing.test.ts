// Tests for the shared pieces of encoding (src/engine/cacher/object-encoders.ts sharedEncoder,
// CachingObject.cacheEncodeFor) and for deepCopyJSON, which every non-cached delivery and lazy
// copy goes through.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { deepCopyJSON, newCachingObject } from '../../../src/engine/cacher/caching-object';
import {
  contentTypeJSON,
  contentTypeProtobuf,
  encodeObject,
  newJSONEncoder,
  newProtobufEncoder,
  sharedEncoder,
} from '../../../src/engine/cacher/object-encoders';
import { makePod, type KubeObject } from '../../../src/engine/storage/objects';

describe('sharedEncoder and cacheEncodeFor', () => {
  it('one encoder per content type and group-version, encoding like a new one', () => {
    const pod = makePod({ name: 'p', namespace: 'ns' });
    const cases = [
      { name: 'json v1', ct: contentTypeJSON, gv: 'v1', fresh: newJSONEncoder('v1') },
      { name: 'protobuf v1', ct: contentTypeProtobuf, gv: 'v1', fresh: newProtobufEncoder('v1') },
      {
        name: 'json apps/v1',
        ct: contentTypeJSON,
        gv: 'apps/v1',
        fresh: newJSONEncoder('apps/v1'),
      },
    ] as const;
    for (const c of cases) {
      const e = sharedEncoder(c.ct, c.gv);
      assert.strictEqual(sharedEncoder(c.ct, c.gv), e, `${c.name}: the same instance`);
      assert.deepStrictEqual(
        [e.contentType, e.groupVersion, e.identifier],
        [c.fresh.contentType, c.fresh.groupVersion, c.fresh.identifier],
        c.name,
      );
      assert.deepStrictEqual(e.encode(pod), c.fresh.encode(pod), `${c.name}: same bytes`);
    }
    assert.notStrictEqual(
      sharedEncoder(contentTypeJSON, 'v1'),
      sharedEncoder(contentTypeProtobuf, 'v1'),
    );
  });

  it('cacheEncodeFor counts and caches exactly like cacheEncode, failures included', () => {
    const calls: string[] = [];
    const ok = {
      identifier: 'ok',
      encode: (o: KubeObject) => (
        calls.push('ok'),
        new TextEncoder().encode(o.metadata.name ?? '')
      ),
    };
    const bad = {
      identifier: 'bad',
      encode: (): Uint8Array => {
        calls.push('bad');
        throw new Error('mock error');
      },
    };
    const co = newCachingObject({ metadata: { name: 'n' } });
    for (let i = 0; i < 3; i++) {
      assert.deepStrictEqual(co.cacheEncodeFor(ok), new TextEncoder().encode('n'));
      assert.throws(() => co.cacheEncodeFor(bad), /mock error/);
    }
    assert.deepStrictEqual(
      co.cacheEncode('ok', () => new Uint8Array()),
      new TextEncoder().encode('n'),
      'the same cache as cacheEncode',
    );
    assert.deepStrictEqual(calls, ['ok', 'bad'], 'each encoder once');
    assert.deepStrictEqual(Object.fromEntries(co.serializationCounts()), {
      ok: { encodes: 1, hits: 3, errors: 0 },
      bad: { encodes: 1, hits: 2, errors: 1 },
    });
    // A real change drops the cached bytes; the lifetime counts go on.
    co.setName('m');
    assert.deepStrictEqual(encodeObject(sharedEncoder(contentTypeJSON, 'v1'), co).length > 0, true);
    co.cacheEncodeFor(ok);
    assert.deepStrictEqual(co.serializationCounts().get('ok'), { encodes: 2, hits: 3, errors: 0 });
  });
});

describe('CachingObject.encodedLength', () => {
  it('counts like cacheEncodeFor(…).length over any calls, setters and reads, quiet or heard', () => {
    const encoders = ['a', 'b', 'c'].map((id) => ({
      identifier: id,
      encode: (o: KubeObject) => new TextEncoder().encode(`${id}:${o.metadata.name ?? ''}`),
    }));
    type Step = { op: 'length'; e: number } | { op: 'set'; name: string } | { op: 'read' };
    const stepArb: fc.Arbitrary<Step> = fc.oneof(
      { weight: 8, arbitrary: fc.record({ op: fc.constant('length' as const), e: fc.nat(2) }) },
      {
        weight: 1,
        arbitrary: fc.record({ op: fc.constant('set' as const), name: fc.constantFrom('n', 'm') }),
      },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('read' as const) }) },
    );
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), fc.boolean(), (steps, heard) => {
        const run = (bulk: boolean): unknown[] => {
          const hits: string[] = [];
          const co = newCachingObject(
            { metadata: { name: 'n' } },
            heard ? { eventSink: { encoded: (e) => hits.push(`${e.identifier}:${e.hit}`) } } : {},
          );
          const out: unknown[] = [];
          for (const s of steps) {
            if (s.op === 'length') {
              const enc = encoders[s.e];
              out.push(bulk ? co.encodedLength(enc) : co.cacheEncodeFor(enc).length);
            } else if (s.op === 'set') co.setName(s.name);
            else out.push(JSON.stringify(Object.fromEntries(co.serializationCounts())));
          }
          out.push(JSON.stringify(Object.fromEntries(co.serializationCounts())), hits);
          return out;
        };
        assert.deepStrictEqual(run(true), run(false));
      }),
    );
  });
});

describe('deepCopyJSON', () => {
  it('copies an own "__proto__" key (as JSON.parse makes it) as data, not as the prototype', () => {
    const src = JSON.parse('{"metadata":{"labels":{"__proto__":{"x":"y"}}}}');
    const copy = deepCopyJSON(src);
    const labels = copy.metadata.labels;
    assert.ok(
      Object.prototype.hasOwnProperty.call(labels, '__proto__'),
      'the key survives the copy',
    );
    assert.strictEqual(Object.getPrototypeOf(labels), Object.prototype);
    assert.strictEqual(JSON.stringify(copy), JSON.stringify(src));
  });

  it('copies JSON data: equal, in the same key order, sharing no object or array', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const copy = deepCopyJSON(v);
        assert.deepStrictEqual(copy, v);
        assert.strictEqual(JSON.stringify(copy), JSON.stringify(v), 'key order');
        const shared = (a: unknown, b: unknown): boolean => {
          if (a === null || typeof a !== 'object') return false;
          if (a === b) return true;
          const ka = Object.keys(a as object);
          return ka.some((k) =>
            shared((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
          );
        };
        return !shared(copy, v);
      }),
    );
  });

  it('copies byte arrays and keeps undefined-valued keys', () => {
    const bytes = Uint8Array.of(1, 2);
    const src = { a: bytes, b: undefined, c: [null, { d: 1 }] };
    const copy = deepCopyJSON(src);
    assert.deepStrictEqual(copy, src);
    assert.notStrictEqual(copy.a, bytes);
    assert.ok('b' in copy);
  });
});
