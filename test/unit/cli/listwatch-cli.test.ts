// Tests for the `listwatch` CLI (src/cli): spawns the bundled dist/cli.js (built by `node esbuild.js`)
// and checks exit codes, stdout and stderr.
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '../../../..');
const cli = path.join(root, 'dist/cli.js');
const fixture = (name: string): string =>
  fs.readFileSync(path.join(root, 'test/fixtures', name), 'utf8');
const pageToken =
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiZGVmYXVsdC9wb2QtYlx1MDAwMCJ9';

function run(args: string[], input?: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], {
    input: input ?? '',
    encoding: 'utf8',
    cwd: root,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('listwatch CLI', () => {
  before(() =>
    assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run `node esbuild.js` first'),
  );

  describe('top level', () => {
    const cases: Array<[string, string[], number, RegExp, 'out' | 'err']> = [
      [
        '--help lists the subcommands',
        ['--help'],
        0,
        /Commands:\n {2}decode .*\n {2}encode /,
        'out',
      ],
      ['help decode shows decode help', ['help', 'decode'], 0, /Usage: listwatch decode/, 'out'],
      ['no command is a usage error', [], 2, /Usage: listwatch <command>/, 'err'],
      [
        'unknown command names it',
        ['decod'],
        2,
        /unknown command "decod"; expected one of: decode, encode/,
        'err',
      ],
    ];
    for (const [name, args, code, re, stream] of cases) {
      it(name, () => {
        const r = run(args);
        assert.strictEqual(r.code, code, `${name}: ${r.err}`);
        assert.match(r[stream], re, name);
      });
    }
  });

  describe('decode', () => {
    it('explains a valid token; exit 0', () => {
      const r = run(['decode', pageToken]);
      assert.strictEqual(r.code, 0, r.err);
      assert.match(r.out, /^argument 1:\n {2}token: {5}eyJ/);
      assert.match(r.out, /valid: {5}yes/);
      assert.match(r.out, /absolute: {2}\/registry\/pods\/default\/pod-b␀/);
      assert.match(r.out, /resume: {4}just after \/registry\/pods\/default\/pod-b /);
    });

    it("an invalid token prints upstream's message; exit 1", () => {
      const r = run(['decode', pageToken + '==']);
      assert.strictEqual(r.code, 1);
      assert.match(
        r.out,
        /error: {5}continue key is not valid: illegal base64 data at input byte 84/,
      );
      assert.match(
        r.out,
        /apiserver: 400 Bad Request: invalid continue token: continue key is not valid: illegal base64 data at input byte 84/,
      );
    });

    it('one invalid among several: exit 1 and a summary', () => {
      const r = run(['decode', pageToken, 'nope']);
      assert.strictEqual(r.code, 1);
      assert.match(r.out, /2 tokens, 1 invalid\n$/);
    });

    it('--prefix (both forms) sets the key prefix', () => {
      for (const args of [['--prefix', '/registry/pods/x/'], ['--prefix=/registry/pods/x/']]) {
        const r = run(['decode', ...args, pageToken]);
        assert.strictEqual(r.code, 0, r.err);
        assert.match(r.out, /absolute: {2}\/registry\/pods\/x\/default\/pod-b␀/, args.join(' '));
      }
    });

    it('--json prints one object per token with the explanation fields', () => {
      const r = run(['decode', '--json', pageToken, pageToken + '=']);
      assert.strictEqual(r.code, 1);
      const lines = r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.strictEqual(lines.length, 2);
      assert.deepStrictEqual(lines[0].source, { argument: 1 });
      assert.strictEqual(lines[0].valid, true);
      assert.deepStrictEqual(lines[0].fields, {
        v: 'meta.k8s.io/v1',
        rv: '12345',
        start: 'default/pod-b\x00',
      });
      assert.strictEqual(lines[0].resumePoint.display, '/registry/pods/default/pod-b␀');
      assert.strictEqual(lines[1].valid, false);
      assert.strictEqual(
        lines[1].error.message,
        'continue key is not valid: illegal base64 data at input byte 84',
      );
      assert.deepStrictEqual(
        lines[1].warnings.map((w: { kind: string }) => w.kind),
        ['padding'],
      );
    });

    it('an argument holding a URL has its token extracted', () => {
      const r = run(['decode', '--json', `https://h/api/v1/pods?limit=500&continue=${pageToken}`]);
      assert.strictEqual(r.code, 0, r.err);
      const e = JSON.parse(r.out);
      assert.deepStrictEqual(e.source, { argument: 1, kind: 'query' });
      assert.strictEqual(e.token, pageToken);
    });

    it('- reads a kubectl -v=8 log from stdin and reports line and column', () => {
      const r = run(['decode', '-'], fixture('kubectl-v8-1.33.log'));
      assert.strictEqual(r.code, 0, r.err);
      const heads = r.out.split('\n').filter((l) => /^line \d+/.test(l));
      assert.deepStrictEqual(heads, [
        'line 20, column 181 (json):',
        'line 22, column 123 (query):',
        'line 34, column 181 (json):',
        'line 36, column 123 (query):',
      ]);
      assert.match(r.out, /4 tokens, all valid\n$/);
    });

    it('- with --json: every token of the audit log, with its source line', () => {
      const r = run(['decode', '--json', '-'], fixture('audit.log'));
      assert.strictEqual(r.code, 0, r.err);
      const sources = r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).source);
      assert.deepStrictEqual(
        sources.map((s: { line: number; kind: string }) => [s.line, s.kind]),
        [
          [2, 'query'],
          [3, 'query'],
          [5, 'query'],
          [5, 'json'],
          [6, 'query'],
          [7, 'json'],
        ],
      );
    });

    it("bad-tokens.log: every token invalid with upstream's messages; exit 1", () => {
      const r = run(['decode', '--json', '-'], fixture('bad-tokens.log'));
      assert.strictEqual(r.code, 1);
      const messages = r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).error.message);
      assert.deepStrictEqual(messages, [
        'continue key is not valid: illegal base64 data at input byte 103',
        'continue key is not valid: ../secrets/kube-system/admin-token',
        'continue key is not valid: server does not recognize this encoded version v1',
        'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
        'continue key is not valid: illegal base64 data at input byte 60',
        'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
      ]);
    });

    it('stdin without tokens: exit 1 and a message', () => {
      const r = run(['decode', '-'], 'nothing here\nor here\n');
      assert.strictEqual(r.code, 1);
      assert.match(r.err, /no continue token found in stdin \(2 lines scanned\)/);
    });

    it('streams: a token is reported before stdin is closed', async () => {
      const child = spawn(process.execPath, [cli, 'decode', '-'], { cwd: root });
      let out = '';
      const seen = new Promise<void>((resolve) =>
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('line 1, column')) resolve();
        }),
      );
      child.stdin.write(`GET /api/v1/pods?continue=${pageToken}&limit=500\n`);
      await seen;
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.stdin.end('last line\n');
      assert.strictEqual(await exited, 0);
    });

    const usage: Array<[string, string[], RegExp]> = [
      ['no token', ['decode'], /listwatch decode: no token given/],
      [
        'unknown option',
        ['decode', '--prefx', '/a/', 'x'],
        /listwatch decode: unknown option "--prefx"/,
      ],
      ['option without value', ['decode', 'x', '--prefix'], /option --prefix needs a value/],
      ['stdin twice', ['decode', '-', '-'], /"-" \(stdin\) given more than once/],
    ];
    for (const [name, args, re] of usage) {
      it(`usage error: ${name}; exit 2`, () => {
        const r = run(args);
        assert.strictEqual(r.code, 2, name);
        assert.match(r.err, re, name);
        assert.match(r.err, /Run 'listwatch decode --help' for usage\./, name);
      });
    }

    it('--help; exit 0', () => {
      const r = run(['decode', '--help']);
      assert.strictEqual(r.code, 0);
      assert.match(r.out, /Exit status: 0 every token is valid, 1 a token is invalid/);
    });
  });

  describe('encode', () => {
    const cases: Array<[string, string[], string]> = [
      [
        'at a key',
        ['--key', '/registry/pods/default/pod-b', '--rv', '12345'],
        'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiZGVmYXVsdC9wb2QtYiJ9',
      ],
      [
        '--after appends the NUL',
        ['--key', '/registry/pods/default/pod-b', '--rv', '12345', '--after'],
        pageToken,
      ],
      [
        'namespaced prefix, rv -1',
        [
          '--key=/registry/pods/default/pod-b',
          '--prefix',
          '/registry/pods/default/',
          '--rv',
          '-1',
          '--after',
        ],
        'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoicG9kLWJcdTAwMDAifQ',
      ],
      [
        'int64 max rv',
        ['--key', '/p/k', '--prefix', '/p/', '--rv', '9223372036854775807'],
        Buffer.from('{"v":"meta.k8s.io/v1","rv":9223372036854775807,"start":"k"}').toString(
          'base64url',
        ),
      ],
    ];
    for (const [name, args, want] of cases) {
      it(name, () => {
        const r = run(['encode', ...args]);
        assert.strictEqual(r.code, 0, `${name}: ${r.err}`);
        assert.strictEqual(r.out, want + '\n', name);
      });
    }

    it('--json', () => {
      const r = run([
        'encode',
        '--json',
        '--key',
        '/registry/pods/default/pod-b',
        '--rv',
        '12345',
        '--after',
      ]);
      assert.strictEqual(r.code, 0, r.err);
      assert.deepStrictEqual(JSON.parse(r.out), {
        token: pageToken,
        key: '/registry/pods/default/pod-b\x00',
        prefix: '/registry/pods/',
        rv: '12345',
        start: 'default/pod-b\x00',
        json: '{"v":"meta.k8s.io/v1","rv":12345,"start":"default/pod-b\\u0000"}',
      });
    });

    it("a key outside the prefix: upstream's message and a hint; exit 1", () => {
      const r = run(['encode', '--key', 'default/pod-b', '--rv', '1']);
      assert.strictEqual(r.code, 1);
      assert.match(
        r.err,
        /unable to encode next field: the key and key prefix do not match: --key "default\/pod-b" does not start with --prefix "\/registry\/pods\/" \(did you mean --key "\/registry\/pods\/default\/pod-b"\?\)/,
      );
    });

    const usage: Array<[string, string[], RegExp]> = [
      ['missing --key', ['--rv', '1'], /missing --key K/],
      ['missing --rv', ['--key', '/registry/pods/a'], /missing --rv N/],
      [
        'rv not an integer',
        ['--key', '/registry/pods/a', '--rv', '12a'],
        /invalid --rv "12a": expected an integer/,
      ],
      [
        'rv beyond int64',
        ['--key', '/registry/pods/a', '--rv', '9223372036854775808'],
        /invalid --rv 9223372036854775808: outside the int64 range/,
      ],
      [
        'stray argument',
        ['--key', '/registry/pods/a', '--rv', '1', 'extra'],
        /unexpected argument "extra"/,
      ],
      [
        'flag with a value',
        ['--key', '/registry/pods/a', '--rv', '1', '--after=yes'],
        /option --after takes no value/,
      ],
      [
        'repeated option',
        ['--key', '/a', '--key', '/b', '--rv', '1'],
        /option --key given more than once/,
      ],
    ];
    for (const [name, args, re] of usage) {
      it(`usage error: ${name}; exit 2`, () => {
        const r = run(['encode', ...args]);
        assert.strictEqual(r.code, 2, name);
        assert.match(r.err, re, name);
      });
    }
  });
});
