// `listwatch probe --compare` on the command line, before anything is compared: which collection
// each --resource names, and the usage errors and the unreachable cluster (exit 2). No upstream
// counterpart.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { runCli } from '../../../src/cli/main';
import { compareResource } from '../../../src/probe/compare-resource';

describe('probe --compare: --resource', () => {
  const cases: Array<
    [spec: string, namespace: string | undefined, path: string, prefix: string, cache: boolean]
  > = [
    ['pods', undefined, '/api/v1/pods', '/registry/pods/', true],
    ['pods', 'shop', '/api/v1/namespaces/shop/pods', '/registry/pods/shop/', true],
    ['cm', 'shop', '/api/v1/namespaces/shop/configmaps', '/registry/configmaps/shop/', true],
    ['deployments.apps', undefined, '/apis/apps/v1/deployments', '/registry/deployments/', true],
    ['services', undefined, '/api/v1/services', '/registry/services/specs/', true],
    ['namespaces', 'shop', '/api/v1/namespaces', '/registry/namespaces/', true],
    ['events', undefined, '/api/v1/events', '/registry/events/', false],
    [
      '/apis/example.com/v1/widgets',
      undefined,
      '/apis/example.com/v1/widgets',
      '/registry/example.com/widgets/',
      true,
    ],
  ];
  for (const [spec, ns, p, prefix, cache] of cases)
    it(`${spec}${ns ? ` in ${ns}` : ''}`, () => {
      const r = compareResource(spec, ns);
      assert.deepStrictEqual([r.path, r.keyPrefix, r.watchCache], [p, prefix, cache]);
    });
  it('an unknown name says how to give a custom resource', () => {
    assert.throws(() => compareResource('widgets'), {
      message:
        '--resource "widgets": not a built-in resource (e.g. pods, deployments.apps, cm); give a custom resource as its collection path, e.g. /apis/example.com/v1/widgets',
    });
  });
});

describe('probe --compare: exit 2 for usage and an unreachable cluster', () => {
  let dir: string;
  let kubeconfig: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-compare-'));
    kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      kubeconfig,
      yaml.dump({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'c',
            cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true },
          },
        ],
        users: [{ name: 'u', user: { token: 'x' } }],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'ctx',
      }),
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cases: Array<[args: string[], err: RegExp]> = [
    [['--compare', '/api/v1/pods'], /^listwatch probe: --compare takes no <list-url>/],
    [['--compare', '--watch', '2'], /^listwatch probe: --watch is not an option of --compare/],
    [['--rv0', '/api/v1/pods'], /^listwatch probe: --rv0 is an option of --compare/],
    [
      ['--compare', '--profile', '1.2'],
      /^listwatch probe: --profile expects 1.36 or 1.37, got "1.2"/,
    ],
    [
      ['--compare', '--resource', 'widgets'],
      /^listwatch probe: --resource "widgets": not a built-in resource/,
    ],
    [['--compare', '--limit', '0'], /^listwatch probe: --limit: expected a positive whole number/],
    [['--compare', '--namespace', 'Bad_NS'], /^listwatch probe: --namespace: not a namespace name/],
    [
      ['--compare', '--yes'],
      /listwatch probe: cannot reach the cluster "c" at https:\/\/127\.0\.0\.1:1 .*ECONNREFUSED/,
    ],
  ];
  for (const [args, err] of cases)
    it(args.join(' '), async () => {
      let out = '';
      let errText = '';
      const io = {
        out: (t: string) => void (out += t),
        err: (t: string) => void (errText += t),
        stdinLines: async function* () {},
      };
      const code = await runCli(['probe', '--kubeconfig', kubeconfig, ...args], io);
      assert.strictEqual(code, 2, `${errText}\n${out}`);
      // The plan may come first (the unreachable case): the error is its own line.
      assert.ok(
        errText.split('\n').some((l) => err.test(l)),
        errText,
      );
    });
});
