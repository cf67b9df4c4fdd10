// Tests for the CLI's repeatable options as a user meets them (the bundled dist/cli.js): `scenario
// estimate --set name=value` and `serve --crd FILE`, each given once and twice, with = and apart,
// and their usage errors word for word.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { estimateRun } from '../../../src/scenarios/runner';
import { runCli } from './run-cli';

describe('listwatch: repeatable options', () => {
  describe('scenario estimate --set', () => {
    const scenario = 'read-your-writes';
    const ok: Array<{ name: string; args: string[]; params: Record<string, string> }> = [
      { name: 'none', args: [], params: {} },
      { name: 'once, apart', args: ['--set', 'readers=5'], params: { readers: '5' } },
      { name: 'once, with =', args: ['--set=readers=5'], params: { readers: '5' } },
      {
        name: 'twice, apart',
        args: ['--set', 'readers=5', '--set', 'cacheLagMs=3000'],
        params: { readers: '5', cacheLagMs: '3000' },
      },
      {
        name: 'twice, with =',
        args: ['--set=readers=5', '--set=cacheLagMs=3000'],
        params: { readers: '5', cacheLagMs: '3000' },
      },
      {
        name: 'twice, mixed, around the name and another option',
        args: ['--set=cacheLagMs=3000', scenario, '--json', '--set', 'readers=5'],
        params: { readers: '5', cacheLagMs: '3000' },
      },
    ];
    for (const c of ok) {
      it(`takes ${c.name}`, () => {
        const args = c.args.includes(scenario) ? c.args : [scenario, ...c.args, '--json'];
        const r = runCli(['scenario', 'estimate', ...args]);
        assert.strictEqual(r.code, 0, `${c.name}: ${r.err}`);
        const got = (JSON.parse(r.out) as { estimate: unknown }).estimate;
        assert.deepStrictEqual(got, estimateRun(scenario, c.params), c.name);
      });
    }

    const usage: Array<{ name: string; args: string[]; message: string }> = [
      {
        name: 'a missing value',
        args: ['--set', 'readers=5', '--set'],
        message: 'option --set needs a value name=value',
      },
      {
        name: 'a value without =',
        args: ['--set', 'readers'],
        message: '--set expects name=value, got "readers"',
      },
      { name: 'an empty value', args: ['--set='], message: '--set expects name=value, got ""' },
      { name: 'no name', args: ['--set', '=5'], message: '--set expects name=value, got "=5"' },
      {
        name: 'a parameter twice',
        args: ['--set', 'readers=5', '--set=readers=6'],
        message: '--set readers given more than once',
      },
      {
        name: 'two unknown parameters: the first named',
        args: ['--set=lag=5', '--set', 'nope=1'],
        message: `scenario ${scenario}: unknown parameter "lag"`,
      },
    ];
    for (const c of usage) {
      it(`refuses ${c.name}; exit 2`, () => {
        const r = runCli(['scenario', 'estimate', scenario, ...c.args]);
        assert.strictEqual(r.code, 2, c.name);
        assert.ok(
          r.err.startsWith(`listwatch scenario: ${c.message}`),
          `${c.name}: ${JSON.stringify(r.err)}`,
        );
      });
    }
  });

  describe('serve --crd', () => {
    // Every CRD file is read before the server listens: a missing one stops the start, naming it.
    let dir: string;
    let crd: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-crd-'));
      crd = path.join(dir, 'crd.yaml');
      fs.writeFileSync(
        crd,
        [
          'apiVersion: apiextensions.k8s.io/v1',
          'kind: CustomResourceDefinition',
          'metadata: {name: crontabs.stable.example.com}',
          'spec:',
          '  group: stable.example.com',
          '  scope: Namespaced',
          '  names: {plural: crontabs, singular: crontab, kind: CronTab}',
          '  versions:',
          '    - {name: v1, served: true, storage: true}',
        ].join('\n'),
      );
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const missing = (name: string): string => path.join(dir ?? '', name);
    const cases: Array<{ name: string; args: () => string[]; code: number; err: () => string }> = [
      {
        name: 'once, apart',
        args: () => ['--crd', missing('a.yaml')],
        code: 1,
        err: () => `no such file or directory, open '${missing('a.yaml')}'`,
      },
      {
        name: 'once, with =',
        args: () => [`--crd=${missing('a.yaml')}`],
        code: 1,
        err: () => `no such file or directory, open '${missing('a.yaml')}'`,
      },
      {
        name: 'twice, apart: the second read after the first',
        args: () => ['--crd', crd, '--crd', missing('b.yaml')],
        code: 1,
        err: () => `no such file or directory, open '${missing('b.yaml')}'`,
      },
      {
        name: 'twice, with =: in argv order',
        args: () => [`--crd=${missing('a.yaml')}`, `--crd=${missing('b.yaml')}`],
        code: 1,
        err: () => `no such file or directory, open '${missing('a.yaml')}'`,
      },
      {
        name: 'twice, mixed, around another option',
        args: () => [`--crd=${crd}`, '--json', '--crd', missing('b.yaml')],
        code: 1,
        err: () => `no such file or directory, open '${missing('b.yaml')}'`,
      },
      {
        name: 'a missing value',
        args: () => ['--crd', crd, '--crd'],
        code: 2,
        err: () => 'listwatch serve: option --crd needs a value\n',
      },
    ];
    for (const c of cases) {
      it(`takes ${c.name}; exit ${c.code}`, () => {
        const r = runCli(['serve', ...c.args()]);
        assert.strictEqual(r.code, c.code, `${c.name}: ${r.err}`);
        assert.ok(r.err.includes(c.err()), `${c.name}: ${JSON.stringify(r.err)}`);
      });
    }
  });
});
