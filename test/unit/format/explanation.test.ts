// Tests for src/format/explanation.ts: markdown (hovers) and text (terminal) renderers, incl. escaping.
import * as assert from 'assert';
import { explainContinueToken } from '../../../src/engine';
import {
  escapeMarkdown,
  renderExplanationMarkdown,
  renderExplanationText,
  visibleText,
} from '../../../src/format/explanation';

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
      'start:     default/pod-b␀',
      'absolute:  /registry/pods/default/pod-b␀',
      'resume:    just after /registry/pods/default/pod-b ',
    ])
      assert.ok(text.includes(want), `missing ${JSON.stringify(want)} in\n${text}`);
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

describe('renderExplanationMarkdown', () => {
  it('renders a table, the apiserver line and the decoded JSON in a code block', () => {
    const md = renderExplanationMarkdown(explainContinueToken(pageToken, '/registry/pods/'));
    assert.ok(md.startsWith('**Kubernetes continue token** ✅ valid'), md);
    assert.ok(md.includes('| start (absolute) | \\/registry\\/pods\\/default\\/pod\\-b␀ |'), md);
    assert.ok(
      md.includes('```json\n{"v":"meta.k8s.io/v1","rv":12345,"start":"default/pod-b\\u0000"}\n```'),
      md,
    );
  });

  it('escapes markdown and HTML in every user-controlled string', () => {
    const start = '<img src=x onerror=alert(1)>|**bold**[link](http://x)`code`';
    const md = renderExplanationMarkdown(
      explainContinueToken(tok(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start })), '/p/'),
    );
    const outsideCode = md.slice(0, md.indexOf('Decoded JSON:'));
    assert.ok(!/(^|[^\\])[<>`[\]]/.test(outsideCode), outsideCode);
    assert.ok(outsideCode.includes(`| start (relative) | ${escapeMarkdown(start)} |`), outsideCode);
    assert.ok(outsideCode.includes('\\<img'), outsideCode);
  });

  it('a backtick run in the decoded JSON cannot close the code fence', () => {
    const md = renderExplanationMarkdown(
      explainContinueToken(tok('{"v":"```","rv":1,"start":"k"}'), '/p/'),
    );
    assert.ok(md.includes('````json\n'), md);
  });

  it('escapeMarkdown escapes all ASCII punctuation', () => {
    assert.strictEqual(escapeMarkdown('a_b*c<d>&|'), 'a\\_b\\*c\\<d\\>\\&\\|');
  });
});
