// Tests for src/format/explanation.ts: markdown (hovers) and text (terminal) renderers, incl. escaping.
import * as assert from 'assert';
import { explainContinueToken, profile136, withGates } from '../../../src/engine';
import {
  escapeMarkdown,
  renderExplanationMarkdown,
  renderExplanationText,
  visibleText,
} from '../../../src/format/explanation';
import { nextPageSource } from '../../../src/format/next-page';

const tok = (json: string): string => Buffer.from(json).toString('base64url');
const pageToken =
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiZGVmYXVsdC9wb2QtYlx1MDAwMCJ9';

describe('renderExplanationText', () => {
  it('shows every field of a valid token, the NUL made visible', () => {
    const text = renderExplanationText(explainContinueToken(pageToken, '/registry/pods/'));
    for (const want of [
      'valid:     yes',
      'json:      {"v":"meta.k8s.io/v1","rv":12345,"start":"default/pod-b\\u0000"}',
      'version:   meta.k8s.io/v1',
      'start:     default/pod-b␀ (relative)',
      'prefix:    /registry/pods/\n',
      'resume:    /registry/pods/default/pod-b␀ (just after /registry/pods/default/pod-b, the last key',
      'next page: 1.36 (ListFromCacheSnapshot on): a watch-cache snapshot at revision 12345',
    ])
      assert.ok(text.includes(want), `missing ${JSON.stringify(want)} in\n${text}`);
  });

  it('says where the key prefix came from, and when it is assumed', () => {
    const e = explainContinueToken(pageToken, '/registry/pods/');
    const fromUrl = renderExplanationText(e, {
      keyPrefixSource: 'url',
      keyPrefixDetail: 'the request URL /api/v1/pods',
    });
    assert.ok(
      fromUrl.includes('prefix:    /registry/pods/ (the request URL /api/v1/pods)'),
      fromUrl,
    );
    const assumed = renderExplanationText(e, {
      keyPrefixSource: 'setting',
      keyPrefixDetail: 'assumed: --prefix',
    });
    assert.ok(
      assumed.includes(
        'prefix:    /registry/pods/ (assumed: nothing in the text names the LIST (--prefix))',
      ),
      assumed,
    );
  });

  it('says where kubectl cut a logged body', () => {
    const text = renderExplanationText(explainContinueToken('eyJ2IjoibWV0', '/registry/pods/'), {
      truncated: 159571,
    });
    assert.match(
      text,
      /^truncated: kubectl cut 159571 chars here: client-go logs at most 1024 bytes/m,
    );
  });

  it("shows upstream's message and the warnings for an invalid token", () => {
    const text = renderExplanationText(explainContinueToken(pageToken + '=', '/registry/pods/'));
    assert.ok(
      text.includes('error:     continue key is not valid: illegal base64 data at input byte 84'),
      text,
    );
    assert.ok(text.includes("warning:   '=' padding at character 84"), text);
    assert.ok(text.includes('repaired:  ' + pageToken + ' (valid)'), text);
  });

  it('cannot drive the terminal: control characters from the token and key are made visible', () => {
    const evil = tok('{"v":"meta.k8s.io/v1","rv":1,"start":"a\\u001b[31mred\\u0007"}');
    const text = renderExplanationText(explainContinueToken(evil + '\x1b[2J', '/p/'));
    const controls = Array.from(text).filter(
      (c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    );
    assert.deepStrictEqual(controls, [], JSON.stringify(text));
    assert.strictEqual(visibleText('\x1b\x00\x7f\x85'), '␛␀␡\\u0085');
  });
});

describe('nextPageSource', () => {
  const off = withGates(profile136, { ListFromCacheSnapshot: false });
  const cases: Array<[string, bigint, typeof profile136, RegExp | undefined]> = [
    [
      '1.36, pinned: snapshot or etcd',
      7n,
      profile136,
      /^1\.36 \(ListFromCacheSnapshot on\): a watch-cache snapshot at revision 7 when the cache holds one, otherwise etcd at revision 7; 410 Expired/,
    ],
    [
      'gate off: etcd only',
      7n,
      off,
      /^1\.36 \(ListFromCacheSnapshot off\): etcd at revision 7; 410 Expired/,
    ],
    [
      'rv -1: a consistent read',
      -1n,
      profile136,
      /consistent read at the latest revision, from the watch cache/,
    ],
    ['rv 0 is rejected', 0n, profile136, undefined],
  ];
  for (const [name, rv, profile, want] of cases) {
    it(name, () => {
      const got = nextPageSource(rv, profile);
      if (want === undefined) assert.strictEqual(got, undefined);
      else assert.match(got ?? '', want);
    });
  }
});

describe('renderExplanationMarkdown', () => {
  it('puts the actions on top, then one table; no JSON block for a valid token', () => {
    const md = renderExplanationMarkdown(
      explainContinueToken(pageToken, '/registry/pods/'),
      { keyPrefixSource: 'request', keyPrefixDetail: 'the response to GET /api/v1/pods (line 3)' },
      '[Open in decoder](command:x)',
    );
    assert.ok(
      md.startsWith('[Open in decoder](command:x)\n\n**Kubernetes continue token** ✅ valid\n'),
      md,
    );
    assert.ok(
      md.includes('| resumes at | \\/registry\\/pods\\/default\\/pod\\-b␀ \\(just after'),
      md,
    );
    assert.ok(md.includes('| key prefix | \\/registry\\/pods\\/ \\(the response to GET'), md);
    assert.ok(!md.includes('```'), md);
    assert.strictEqual(md.match(/^\| rv \|/gm)?.length, 1, md);
  });

  it('labels an assumed key prefix in the headline', () => {
    const md = renderExplanationMarkdown(explainContinueToken(pageToken, '/registry/pods/'), {
      keyPrefixSource: 'setting',
      keyPrefixDetail: 'assumed: listwatch.keyPrefix',
    });
    assert.match(md, /^\*\*Kubernetes continue token\*\* ✅ valid · key prefix \*\*assumed\*\*$/m);
  });

  it("shows an invalid token's error, the apiserver's answer and the decoded JSON", () => {
    const md = renderExplanationMarkdown(
      explainContinueToken(tok('{"v":"v1","rv":1,"start":"k"}'), '/registry/pods/'),
    );
    assert.match(md, /❌ invalid \(400 Bad Request\)/);
    const plain = md.replace(/\\([!-/:-@[-`{-~])/g, '$1');
    assert.ok(plain.includes('| error | continue key is not valid: server does not recognize'), md);
    assert.ok(plain.includes('| apiserver | 400 Bad Request: invalid continue token'), md);
    assert.ok(md.includes('```json\n{"v":"v1","rv":1,"start":"k"}\n```'), md);
  });

  it('escapes markdown and HTML in every user-controlled string', () => {
    const start = '<img src=x onerror=alert(1)>|**bold**[link](http://x)`code`';
    const md = renderExplanationMarkdown(
      explainContinueToken(tok(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start })), '/p/'),
    );
    const outsideCode = md.slice(0, md.search(/^`{3,}/m));
    assert.ok(!/(^|[^\\])[<>`[\]]/.test(outsideCode), outsideCode);
    assert.ok(
      outsideCode.includes(`| start | ${escapeMarkdown(start + ' (relative)')} |`),
      outsideCode,
    );
    assert.ok(outsideCode.includes('\\<img'), outsideCode);
  });

  it('a backtick run in the decoded JSON cannot close the code fence', () => {
    const md = renderExplanationMarkdown(
      explainContinueToken(tok('{"v":"```","rv":1,"start":"k"}'), '/p/'),
      {},
    );
    assert.ok(md.includes('````json\n'), md);
  });

  it('escapeMarkdown escapes all ASCII punctuation', () => {
    assert.strictEqual(escapeMarkdown('a_b*c<d>&|'), 'a\\_b\\*c\\<d\\>\\&\\|');
  });
});
