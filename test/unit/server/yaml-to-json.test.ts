// Tests for src/server/yaml-to-json.ts: go-yaml v2's alias limit (decode.go allowedAliasRatio,
// the CVE-2019-11253 fix) and the bound on a body's decoded size, before anything is expanded;
// and what kube-apiserver answers for such a YAML body (create.go → transformDecodeError).
import * as assert from 'assert';
import { StatusError, statusToJSON } from '../../../src/engine/storage/errors';
import { maxRequestBodyBytes } from '../../../src/server/filters/body-limit';
import { decodeBody } from '../../../src/server/json-body';
import { allowedAliasRatio, YamlDecodeError, yamlToJSON } from '../../../src/server/yaml-to-json';

// A "billion laughs": `levels` anchored lists, each holding `fanout` aliases of the one before.
function laughs(levels: number, fanout: number): string {
  const lines = [`a0: &a0 [${Array(fanout).fill('"lol"').join(',')}]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `a${i}: &a${i} [${Array(fanout)
        .fill(`*a${i - 1}`)
        .join(',')}]`,
    );
  return lines.join('\n') + '\n';
}

// A bomb like the issue's: 9 levels of 9 in 432 bytes, expanding to 9^9 = 387,420,489 strings.
const bomb = laughs(9, 9);

describe('server/yaml-to-json', () => {
  describe('allowedAliasRatio (decode.go)', () => {
    const cases: [number, number][] = [
      [0, 0.99],
      [400_000, 0.99],
      [2_200_000, 0.545],
      [4_000_000, 0.1],
      [10_000_000, 0.1],
    ];
    for (const [decodes, ratio] of cases)
      it(`${decodes} decodes: ${ratio}`, () =>
        assert.ok(Math.abs(allowedAliasRatio(decodes) - ratio) < 1e-9));
  });

  describe('what a document decodes to, or why not', () => {
    const big = 'x'.repeat(1000);
    const cases: { name: string; yaml: string; want?: unknown; error?: string; status?: number }[] =
      [
        { name: 'no aliases', yaml: 'a: [1, 2]\nb: {c: d}\n', want: { a: [1, 2], b: { c: 'd' } } },
        {
          name: 'a few aliases',
          yaml: 'base: &b {x: 1}\none: *b\ntwo: *b\n',
          want: { base: { x: 1 }, one: { x: 1 }, two: { x: 1 } },
        },
        {
          name: 'a merge key',
          yaml: 'base: &b {x: 1}\nmore:\n  <<: *b\n  y: 2\n',
          want: { base: { x: 1 }, more: { x: 1, y: 2 } },
        },
        {
          // 100 aliases of a 1,000-node list: a tenth of the decodes are not aliases.
          name: 'aliases under the allowed ratio',
          yaml: `l: &l [${Array(1000).fill('1').join(',')}]\nm: [${Array(9).fill('*l').join(',')}]\n`,
          want: { l: Array(1000).fill(1), m: Array(9).fill(Array(1000).fill(1)) },
        },
        {
          name: 'an alias that is not a node start',
          yaml: 'a: "*b"\nc: d*e\n',
          want: { a: '*b', c: 'd*e' },
        },
        {
          name: 'the 9-level bomb',
          yaml: bomb,
          error: 'yaml: document contains excessive aliasing',
        },
        {
          name: 'an 8-level bomb',
          yaml: laughs(8, 10),
          error: 'yaml: document contains excessive aliasing',
        },
        {
          // 4 levels of 10: 11,110 strings, 99.6% of the decodes from aliases.
          name: 'a small bomb',
          yaml: laughs(4, 10),
          error: 'yaml: document contains excessive aliasing',
        },
        {
          name: 'an anchor that holds its own alias',
          yaml: 'a: &x {b: *x}\n',
          error: "yaml: anchor 'x' value contains itself",
        },
        {
          name: 'a list that holds its own alias',
          yaml: 'a: &x [1, *x]\n',
          error: "yaml: anchor 'x' value contains itself",
        },
        {
          // 4,000 aliases of a 1,000-byte string: 4 MB of JSON from 17 KB, within go-yaml's ratio.
          name: 'aliases past the body limit',
          yaml: `s: &s ${big}\nl: [${Array(4000).fill('*s').join(',')}]\n`,
          status: 413,
          error: `Request entity too large: limit is ${maxRequestBodyBytes}`,
        },
      ];
    for (const c of cases)
      it(c.name, () => {
        if (c.error === undefined) {
          assert.deepStrictEqual(yamlToJSON(c.yaml), c.want);
          return;
        }
        assert.throws(
          () => yamlToJSON(c.yaml),
          (e: unknown) => {
            if (c.status !== undefined) {
              assert.ok(e instanceof StatusError, String(e));
              assert.strictEqual(e.status.code, c.status);
              assert.strictEqual(e.message, c.error);
            } else {
              assert.ok(e instanceof YamlDecodeError, String(e));
              assert.strictEqual(e.message, c.error);
            }
            return true;
          },
        );
      });
  });

  describe('a YAML body kube-apiserver refuses', () => {
    const configMap = { group: '', version: 'v1', kind: 'ConfigMap', unstructured: false };
    const decode = (yaml: string): StatusError => {
      try {
        decodeBody(new TextEncoder().encode(yaml), configMap, {
          contentType: 'application/yaml',
        });
      } catch (e) {
        assert.ok(e instanceof StatusError, String(e));
        return e;
      }
      assert.fail('accepted');
    };
    it('the bomb is a 400 naming the aliasing', () => {
      const hex = Array.from(Buffer.from(bomb).subarray(0, 30), (b) =>
        b.toString(16).padStart(2, '0'),
      ).join('');
      assert.strictEqual(
        statusToJSON(decode(bomb).status),
        `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: document contains excessive aliasing (${hex} ...)","reason":"BadRequest","code":400}`,
      );
    });
    it('aliases past the body limit are its 413', () => {
      const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  s: &s ${'x'.repeat(1000)}\n  l: [${Array(4000).fill('*s').join(',')}]\n`;
      assert.strictEqual(decode(yaml).status.code, 413);
    });
  });
});
