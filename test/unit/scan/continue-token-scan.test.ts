// Tests for src/scan/continue-token-scan.ts: finding tokens in real log formats (test/fixtures).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import {
  findContinueTokens,
  lineScanTruncated,
  maxScanLineLength,
  tokenAt,
} from '../../../src/scan/continue-token-scan';
import { decodeContinue } from '../../../src/engine';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures');
const page1 =
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDgyMTMsInN0YXJ0IjoibW9uaXRvcmluZy9jYWNoZS03ZDlmOGM2YjUtaDRpMXU5MVx1MDAwMCJ9';
const page2 =
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDgyMTMsInN0YXJ0Ijoic2hvcC93ZWItN2Q5ZjhjNmI1LTlrY2ViMTk2XHUwMDAwIn0';

/** Every token in a fixture as [line number, kind, token]. */
function scanFile(name: string): Array<[number, string, string]> {
  const lines = fs.readFileSync(path.join(fixtures, name), 'utf8').split('\n');
  return lines.flatMap((line, i) =>
    findContinueTokens(line).map((t): [number, string, string] => [i + 1, t.kind, t.token]),
  );
}

describe('findContinueTokens on the fixtures', () => {
  it('kubectl -v=8 1.20: response bodies (json) and next request URLs (query)', () => {
    assert.deepStrictEqual(scanFile('kubectl-v8-1.20.log'), [
      [53, 'json', page1],
      [54, 'query', page1],
      [66, 'json', page2],
      [67, 'query', page2],
    ]);
  });

  it('kubectl -v=8 1.33: escaped JSON bodies and structured url="…" requests', () => {
    assert.deepStrictEqual(scanFile('kubectl-v8-1.33.log'), [
      [20, 'json', page1],
      [22, 'query', page1],
      [34, 'json', page2],
      [36, 'query', page2],
    ]);
  });

  it('samples/kubectl-v8.log is the 1.33 fixture', () => {
    assert.strictEqual(
      fs.readFileSync(path.join(fixtures, '../../samples/kubectl-v8.log'), 'utf8'),
      fs.readFileSync(path.join(fixtures, 'kubectl-v8-1.33.log'), 'utf8'),
    );
  });

  it('audit log: requestURI query tokens and a Status metadata.continue on the same line', () => {
    const found = scanFile('audit.log');
    assert.deepStrictEqual(
      found.map(([line, kind]) => [line, kind]),
      [
        [2, 'query'],
        [3, 'query'],
        [5, 'query'],
        [5, 'json'],
        [6, 'query'],
        [7, 'json'],
      ],
    );
    assert.deepStrictEqual(
      decodeContinue(found[3][2], '/registry/pods/').resourceVersion,
      -1,
      'the 410 response carries an rv -1 token',
    );
  });

  it('pod-list.json and pod-list.yaml: metadata.continue', () => {
    const json = scanFile('pod-list.json');
    const yaml = scanFile('pod-list.yaml');
    assert.deepStrictEqual(
      json.map(([l, k]) => [l, k]),
      [[6, 'json']],
    );
    assert.strictEqual(yaml.length, 1);
    assert.strictEqual(yaml[0][1], 'yaml');
    assert.strictEqual(yaml[0][2], json[0][2]);
    assert.strictEqual(
      decodeContinue(json[0][2], '/registry/pods/').fromKey,
      '/registry/pods/default/api-7d9f8c6b5-k2m4p60\x00',
    );
  });

  it('bad-tokens.log: six request URLs, percent-encoding decoded', () => {
    const found = scanFile('bad-tokens.log');
    assert.strictEqual(found.length, 6);
    assert.ok(found.every(([, kind]) => kind === 'query'));
    assert.ok(found[0][2].endsWith('In0='), found[0][2]);
  });
});

describe('findContinueTokens line forms', () => {
  // [name, line, expected [token, kind, raw text at start..end]]
  const cases: Array<[string, string, Array<[string, string, string]>]> = [
    [
      'query, first parameter',
      'GET /api/v1/pods?continue=eyJhYmMi&limit=500',
      [['eyJhYmMi', 'query', 'eyJhYmMi']],
    ],
    [
      'query, later parameter',
      '/api/v1/pods?limit=5&continue=abc_-9',
      [['abc_-9', 'query', 'abc_-9']],
    ],
    ['query, percent-encoded', '?continue=abc%3D%3D&x=1', [['abc==', 'query', 'abc%3D%3D']]],
    ['query, + is a space (url.ParseQuery)', '?continue=ab+cd', [['ab cd', 'query', 'ab+cd']]],
    ['query, malformed escape kept raw', '?continue=ab%zz', [['ab%zz', 'query', 'ab%zz']]],
    ['query, empty value ignored', '?continue=&limit=1', []],
    [
      'query inside Go JSON: & written as \\u0026',
      '"requestURI":"/api/v1/pods?continue=abc\\u0026limit=500"',
      [['abc', 'query', 'abc']],
    ],
    [
      'query, ends at a quote',
      'url="https://h/api/v1/pods?continue=xyz"',
      [['xyz', 'query', 'xyz']],
    ],
    ['not a parameter: mycontinue=', '?mycontinue=abc', []],
    [
      'json field',
      '{"metadata":{"continue":"abc","remainingItemCount":3}}',
      [['abc', 'json', 'abc']],
    ],
    ['json field with spaces', '  "continue" :  "abc",', [['abc', 'json', 'abc']]],
    ['json _continue', '{"_continue":"abc"}', [['abc', 'json', 'abc']]],
    ['json escaped in a log string', 'body="{\\"continue\\":\\"abc\\"}"', [['abc', 'json', 'abc']]],
    ['json, empty continue (last page) ignored', '{"metadata":{"continue":""}}', []],
    [
      'json with an escape in the value',
      '{"continue":"a\\u002bb"}',
      [['a+b', 'json', 'a\\u002bb']],
    ],
    ['yaml plain', '  continue: eyJhYmMi', [['eyJhYmMi', 'yaml', 'eyJhYmMi']]],
    ['yaml double-quoted', 'continue: "abc"', [['abc', 'yaml', 'abc']]],
    ['yaml single-quoted', "continue: 'abc'", [['abc', 'yaml', 'abc']]],
    ['yaml empty', 'continue: ""', []],
    ['yaml list item', '- continue: abc # comment', [['abc', 'yaml', 'abc']]],
    ['yaml key must be at line start', 'foo continue: abc', []],
    [
      'bare token',
      'token is eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ.',
      [
        [
          'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ',
          'bare',
          'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ',
        ],
      ],
    ],
    [
      'bare padded token keeps its padding',
      'x eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ== y',
      [
        [
          'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ==',
          'bare',
          'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ==',
        ],
      ],
    ],
    [
      'bare JWT-like base64 without a v key is not a token',
      'Authorization: Bearer eyJhbGciOiJSUzI1NiIsImtpZCI6IiJ9.eyJpc3MiOiJrIn0.sig',
      [],
    ],
    [
      'two tokens on one line',
      '?continue=aaa {"continue":"bbb"}',
      [
        ['aaa', 'query', 'aaa'],
        ['bbb', 'json', 'bbb'],
      ],
    ],
  ];
  for (const [name, line, want] of cases) {
    it(name, () => {
      const got = findContinueTokens(line).map((t) => [
        t.token,
        t.kind,
        line.slice(t.start, t.end),
      ]);
      assert.deepStrictEqual(got, want, name);
    });
  }

  it("recognises a token cut by client-go's truncateBody, in both log formats", () => {
    const lines: Array<[string, string]> = [
      [
        '1.20',
        'request.go:1107] Response Body: {"metadata":{"continue":"eyJ2IjoibWV0 [truncated 4711 chars]',
      ],
      [
        '1.33',
        '"Response Body" body="{\\"metadata\\":{\\"continue\\":\\"eyJ2IjoibWV0 [truncated 4711 chars]"',
      ],
    ];
    for (const [name, line] of lines) {
      const [t, ...rest] = findContinueTokens(line);
      assert.deepStrictEqual(rest, [], name);
      assert.strictEqual(t?.token, 'eyJ2IjoibWV0', name);
      assert.strictEqual(t.truncated, 4711, name);
      assert.strictEqual(line.slice(t.start, t.end), 'eyJ2IjoibWV0', name);
    }
    assert.strictEqual(findContinueTokens('{"continue":"eyJhYmMi"}')[0].truncated, undefined);
  });

  it('tokenAt finds the token under a column, end inclusive', () => {
    const line = 'GET /api/v1/pods?continue=eyJhYmMi&limit=500';
    const start = line.indexOf('eyJ');
    assert.strictEqual(tokenAt(line, start - 1), undefined);
    assert.strictEqual(tokenAt(line, start)?.token, 'eyJhYmMi');
    assert.strictEqual(tokenAt(line, start + 8)?.token, 'eyJhYmMi');
    assert.strictEqual(tokenAt(line, start + 9), undefined);
  });

  it('caps the work per line and says so', () => {
    const long = 'x'.repeat(maxScanLineLength) + '?continue=abc';
    assert.strictEqual(lineScanTruncated(long), true);
    assert.deepStrictEqual(findContinueTokens(long), []);
    assert.strictEqual(lineScanTruncated('?continue=abc'), false);
  });

  it('never throws, and ranges are ordered, disjoint and inside the line', () => {
    const piece = fc.constantFrom(
      '?continue=',
      '&',
      '"continue":"',
      '"',
      '\\"',
      'continue: ',
      'eyJ',
      'abc',
      '%3D',
      '%',
      '+',
      ' ',
      '=',
      '{',
      '}',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((a) => a.join('')),
        (line) => {
          let last = 0;
          for (const t of findContinueTokens(line)) {
            assert.ok(
              t.start >= last && t.end > t.start && t.end <= line.length,
              JSON.stringify([line, t]),
            );
            last = t.end;
          }
        },
      ),
    );
  });
});
