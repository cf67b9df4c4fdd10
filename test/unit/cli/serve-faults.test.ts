// Tests for `listwatch serve --faults FILE` (src/cli/serve-command.ts, src/server/fault-schedule.ts)
// as a user meets it: the bundled dist/cli.js in a child process. A schedule that does not check
// stops the start before anything is served, naming the file and line; one that checks is in
// force when the server answers, its faults listed with their ids.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cli, root, runCli } from './run-cli';

describe('listwatch serve --faults', () => {
  let dir: string;
  before(() => assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run `node esbuild.js`'));
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-serve-faults-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const refused: [string, string, number, string][] = [
    [
      'an unknown parameter: a usage error at its line, nothing served',
      'faults:\n  - name: latency\n    parameters: {ms: 5, jitter: 2}\n',
      2,
      'faults.yaml:3:25: faults[0] (latency): jitter: unknown parameter; latency takes ms',
    ],
    [
      'a resource not served: refused at the start',
      'faults:\n  - name: blackhole\n    match:\n      resource: widgets.example.com\n',
      1,
      'faults.yaml:4:7: faults[0] (blackhole): match.resource: "widgets.example.com" is not served; expected one of: ',
    ],
  ];
  for (const [name, text, code, message] of refused)
    it(`refuses ${name}`, () => {
      const file = path.join(dir, 'faults.yaml');
      fs.writeFileSync(file, text);
      const r = runCli(['serve', '--faults', file]);
      assert.strictEqual(r.code, code, r.err);
      assert.strictEqual(r.out, '', 'nothing served');
      assert.ok(r.err.includes(`${path.join(dir, message)}`), r.err);
    });

  it('applies a schedule that checks before it serves: the admin API lists it', async () => {
    const file = path.join(dir, 'faults.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        faults: [
          {
            name: 'http-error',
            parameters: { code: 503 },
            match: { verb: 'list' },
            trigger: { count: 2 },
          },
          { name: 'expire-history', match: { resource: 'pods' }, trigger: { afterSeconds: 600 } },
        ],
      }),
    );
    const child = spawn(process.execPath, [cli, 'serve', '--json', '--faults', file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const first = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    try {
      const get = async (p: string) =>
        fetch(first.url + p, { headers: { authorization: `Bearer ${first.token}` } });
      const active = (await (await get('/debug/listwatch/v1/faults/active')).json()) as {
        faults: { name: string; phase: string; parameters: unknown }[];
      };
      assert.deepStrictEqual(
        active.faults.map((f) => [f.name, f.phase, f.parameters]),
        [
          ['http-error', 'armed', { code: 503 }],
          ['expire-history', 'pending', { resource: 'pods' }],
        ],
      );
      assert.strictEqual((await get('/api/v1/pods')).status, 503);
    } finally {
      process.kill(child.pid!, 'SIGTERM');
    }
    assert.strictEqual(await exited, 0);
  });
});
