// Tests for the `listwatch` CLI (src/cli): spawns the bundled dist/cli.js (built by `node esbuild.js`)
// and checks exit codes, stdout and stderr.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cli, root, runCli } from './run-cli';

const fixture = (name: string): string =>
  fs.readFileSync(path.join(root, 'test/fixtures', name), 'utf8');
const pageToken =
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiZGVmYXVsdC9wb2QtYlx1MDAwMCJ9';

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
        const r = runCli(args);
        assert.strictEqual(r.code, code, `${name}: ${r.err}`);
        assert.match(r[stream], re, name);
      });
    }
  });

  describe('decode', () => {
    it('explains a valid token; exit 0', () => {
      const r = runCli(['decode', pageToken]);
      assert.strictEqual(r.code, 0, r.err);
      assert.match(r.out, /^argument 1:\n {2}token: {5}eyJ/);
      assert.match(r.out, /valid: {5}yes/);
      assert.match(
        r.out,
        /resume: {4}\/registry\/pods\/default\/pod-b␀ \(just after \/registry\/pods\/default\/pod-b,/,
      );
      assert.match(
        r.out,
        /prefix: {4}\/registry\/pods\/ \(assumed: nothing in the text names the LIST \(the default --prefix \/registry\/pods\/\)\)/,
      );
    });

    it("an invalid token prints upstream's message; exit 1", () => {
      const r = runCli(['decode', pageToken + '==']);
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
      const r = runCli(['decode', pageToken, 'nope']);
      assert.strictEqual(r.code, 1);
      assert.match(r.out, /2 tokens, 1 invalid\n$/);
    });

    it('--prefix (both forms) sets the key prefix', () => {
      for (const args of [['--prefix', '/registry/pods/x/'], ['--prefix=/registry/pods/x/']]) {
        const r = runCli(['decode', ...args, pageToken]);
        assert.strictEqual(r.code, 0, r.err);
        assert.match(r.out, /resume: {4}\/registry\/pods\/x\/default\/pod-b␀/, args.join(' '));
        assert.match(
          r.out,
          /prefix: {4}\/registry\/pods\/x\/ \(assumed: .*\(--prefix\)\)/,
          args.join(' '),
        );
      }
    });

    it('--json prints one object per token with the explanation fields', () => {
      const r = runCli(['decode', '--json', pageToken, pageToken + '=']);
      assert.strictEqual(r.code, 1);
      const lines = r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.strictEqual(lines.length, 2);
      assert.deepStrictEqual(lines[0].source, { argument: 1 });
      assert.strictEqual(lines[0].keyPrefix, '/registry/pods/');
      assert.strictEqual(lines[0].keyPrefixSource, 'setting');
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
      const r = runCli([
        'decode',
        '--json',
        `https://h/api/v1/pods?limit=500&continue=${pageToken}`,
      ]);
      assert.strictEqual(r.code, 0, r.err);
      const e = JSON.parse(r.out);
      assert.deepStrictEqual(e.source, { argument: 1, kind: 'query' });
      assert.strictEqual(e.token, pageToken);
      assert.strictEqual(e.keyPrefixSource, 'url');
    });

    it("an argument's URL names the LIST: its key prefix, not --prefix", () => {
      const token = Buffer.from(
        '{"v":"meta.k8s.io/v1","rv":5,"start":"kube-proxy\\u0000"}',
      ).toString('base64url');
      const r = runCli([
        'decode',
        '--json',
        '--prefix',
        '/registry/pods/',
        `/api/v1/namespaces/kube-system/configmaps?continue=${token}`,
      ]);
      assert.strictEqual(r.code, 0, r.err);
      const e = JSON.parse(r.out);
      assert.strictEqual(e.keyPrefix, '/registry/configmaps/kube-system/');
      assert.strictEqual(e.resumePoint.key, '/registry/configmaps/kube-system/kube-proxy\x00');
      assert.deepStrictEqual(e.keyPrefixScope, {
        group: '',
        resource: 'configmaps',
        namespace: 'kube-system',
      });
    });

    it('--etcd-prefix moves every key derived from a request', () => {
      const r = runCli([
        'decode',
        '--json',
        '--etcd-prefix',
        '/prod',
        `/apis/apps/v1/deployments?continue=${pageToken}`,
      ]);
      assert.strictEqual(r.code, 0, r.err);
      assert.strictEqual(JSON.parse(r.out).keyPrefix, '/prod/deployments/');
    });

    it('--prefix and --etcd-prefix must be key paths', () => {
      for (const option of ['--prefix', '--etcd-prefix']) {
        const r = runCli(['decode', option, 'registry', pageToken]);
        assert.strictEqual(r.code, 2, option);
        assert.match(r.err, new RegExp(`${option} "registry" is not an etcd key path`), option);
      }
    });

    it('- reads a kubectl -v=8 log from stdin and reports line and column', () => {
      const r = runCli(['decode', '-'], fixture('kubectl-v8-1.33.log'));
      assert.strictEqual(r.code, 0, r.err);
      const heads = r.out.split('\n').filter((l) => /^line \d+/.test(l));
      assert.deepStrictEqual(heads, [
        'line 20, column 181 (json):',
        'line 22, column 123 (query):',
        'line 34, column 181 (json):',
        'line 36, column 123 (query):',
      ]);
      assert.match(
        r.out,
        /prefix: {4}\/registry\/pods\/ \(the response to GET \/api\/v1\/pods \(line 8\)\)/,
      );
      assert.match(r.out, /prefix: {4}\/registry\/pods\/ \(the request URL \/api\/v1\/pods\)/);
      assert.match(r.out, /4 tokens, all valid\n$/);
    });

    it('- with --json: every token of the audit log, with its source line', () => {
      const r = runCli(['decode', '--json', '-'], fixture('audit.log'));
      assert.strictEqual(r.code, 0, r.err);
      const found = r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepStrictEqual(
        found.map(
          (e: {
            source: { line: number; kind: string };
            keyPrefix: string;
            keyPrefixSource: string;
          }) => [e.source.line, e.source.kind, e.keyPrefixSource, e.keyPrefix],
        ),
        [
          [2, 'query', 'objectRef', '/registry/pods/'],
          [3, 'query', 'objectRef', '/registry/pods/shop/'],
          [5, 'query', 'objectRef', '/registry/pods/'],
          [5, 'json', 'objectRef', '/registry/pods/'],
          [6, 'query', 'objectRef', '/registry/pods/'],
          [7, 'json', 'objectRef', '/registry/pods/'],
        ],
      );
      assert.strictEqual(found[1].resumePoint.key, '/registry/pods/shop/api-7d9f8c6b5-2ablc13\x00');
    });

    it("bad-tokens.log: every token invalid with upstream's messages; exit 1", () => {
      const r = runCli(['decode', '--json', '-'], fixture('bad-tokens.log'));
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

    it('- reads a list object: pod-list.yaml and pod-list.json are cluster-wide LISTs', () => {
      for (const name of ['pod-list.yaml', 'pod-list.json']) {
        const r = runCli(['decode', '--json', '-'], fixture(name));
        assert.strictEqual(r.code, 0, r.err);
        const e = JSON.parse(r.out);
        assert.strictEqual(e.keyPrefixSource, 'list', name);
        assert.strictEqual(e.keyPrefix, '/registry/pods/', name);
        assert.match(e.keyPrefixDetail, /^PodList \(v1\): the start key names its namespace/, name);
      }
    });

    it('- says when kubectl cut a token', () => {
      const line =
        '"Response Body" body="{\\"metadata\\":{\\"continue\\":\\"eyJ2IjoibWV0YS5r [truncated 2048 chars]"';
      const r = runCli(['decode', '-'], line + '\n');
      assert.strictEqual(r.code, 1);
      assert.match(r.out, /truncated: kubectl cut 2048 chars here/);
      const e = JSON.parse(runCli(['decode', '--json', '-'], line + '\n').out);
      assert.strictEqual(e.truncated, 2048);
    });

    it('ends quietly when the reader of its output goes away (| head)', async () => {
      const lines = fixture('audit.log').repeat(2000);
      const child = spawn(process.execPath, [cli, 'decode', '--json', '-'], { cwd: root });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.stdin.on('error', () => undefined); // the child may stop reading before all is written
      const firstOutput = new Promise<void>((resolve) =>
        child.stdout.once('data', () => resolve()),
      );
      child.stdin.end(lines);
      await firstOutput;
      child.stdout.destroy();
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.strictEqual(err, '', 'nothing on stderr');
      assert.strictEqual(code, 0);
    });

    it('stdin without tokens: exit 1 and a message', () => {
      const r = runCli(['decode', '-'], 'nothing here\nor here\n');
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
        const r = runCli(args);
        assert.strictEqual(r.code, 2, name);
        assert.match(r.err, re, name);
        assert.match(r.err, /Run 'listwatch decode --help' for usage\./, name);
      });
    }

    it('--help; exit 0', () => {
      const r = runCli(['decode', '--help']);
      assert.strictEqual(r.code, 0);
      assert.match(r.out, /Exit status: 0 every token is valid, 1 a token is invalid/);
    });
  });

  /** True when text holds a control character other than a line break. */
  const hasControl = (text: string): boolean =>
    Array.from(text).some(
      (c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    );

  describe('error text', () => {
    it('never echoes a control character from rejected input (a NUL in a trace line)', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-cli-'));
      try {
        const header = path.join(dir, 'header.jsonl');
        fs.writeFileSync(header, '{"format":\x00}\n');
        const r = runCli(['report', header]);
        assert.strictEqual(r.code, 2);
        assert.ok(!hasControl(r.err), JSON.stringify(r.err));
        assert.match(r.err, /Unexpected token '␀'/);
        const body = path.join(dir, 'body.jsonl');
        fs.writeFileSync(
          body,
          fixture('hostile-names.jsonl').split('\n')[0] + '\n{"kind":"input","at":0,\x00"x":1}\n',
        );
        const report = runCli(['report', body]);
        assert.ok(!hasControl(report.err + report.out), JSON.stringify(report.err));
        assert.match(report.err, /1 line\(s\) of .* rejected/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
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
        const r = runCli(['encode', ...args]);
        assert.strictEqual(r.code, 0, `${name}: ${r.err}`);
        assert.strictEqual(r.out, want + '\n', name);
      });
    }

    it('--json', () => {
      const r = runCli([
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
      const r = runCli(['encode', '--key', 'default/pod-b', '--rv', '1']);
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
        const r = runCli(['encode', ...args]);
        assert.strictEqual(r.code, 2, name);
        assert.match(r.err, re, name);
      });
    }
  });
});
