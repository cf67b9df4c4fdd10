// What the probe says it will send, from a kubeconfig, before it sends or runs anything: the
// credential redacted, the token file, the exec plugin's command, the client certificate's
// subject, TLS; and the errors that name the kubeconfig and context. No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { generateSelfSignedCertKey } from '../../../src/server/self-signed-certificate';
import { defaultKubeconfigPath } from '../../../src/probe/default-kubeconfig';
import { kubeconfigContexts, loadClusterTarget } from '../../../src/probe/kubeconfig-target';
import { describeProbe } from '../../../src/probe/probe-run';
import { parseProbeUrl } from '../../../src/probe/probe-url';
import { redactAuthorization } from '../../../src/probe/redact';
import { runCli } from '../../../src/cli/main';

const token43 = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

function kubeconfig(
  user: Record<string, unknown>,
  cluster: Record<string, unknown> = {
    server: 'https://10.0.0.1:6443',
    'insecure-skip-tls-verify': true,
  },
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'prod', cluster }],
    users: [{ name: 'admin', user }],
    contexts: [
      { name: 'prod-admin', context: { cluster: 'prod', user: 'admin' } },
      { name: 'other', context: { cluster: 'prod', user: 'admin' } },
    ],
    'current-context': 'prod-admin',
  };
}

describe('probe kubeconfig target', () => {
  let dir: string;
  const write = (name: string, doc: unknown): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof doc === 'string' ? doc : yaml.dump(doc));
    return file;
  };
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-probe-unit-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('redacts a credential to its scheme and length', () => {
    assert.strictEqual(redactAuthorization(`Bearer ${token43}`), 'Bearer <redacted, 43 chars>');
    assert.strictEqual(redactAuthorization('secret'), '<redacted, 6 chars>');
  });

  it('a token: the plan shows every request, the headers redacted, TLS', async () => {
    const file = write('token', kubeconfig({ token: token43 }));
    const t = await loadClusterTarget(file);
    assert.deepStrictEqual(
      describeProbe(t, {
        url: parseProbeUrl('/api/v1/pods?limit=2'),
        watchSeconds: 5,
        metrics: true,
      }),
      [
        'The probe will read (GET only, never write) from cluster "prod" at https://10.0.0.1:6443',
        `  kubeconfig ${file}, context "prod-admin", user "admin"`,
        'GET https://10.0.0.1:6443/api/v1/pods?limit=2',
        "GET https://10.0.0.1:6443/api/v1/pods?limit=2&continue=<the previous page's continue token>  (while a page has one; at most 100 pages)",
        "GET https://10.0.0.1:6443/api/v1/pods?allowWatchBookmarks=true&watch=true&resourceVersion=<the first page's resourceVersion>  (read for 5 s, then closed)",
        'GET https://10.0.0.1:6443/metrics  (Accept: text/plain;version=0.0.4)',
        'Headers:',
        '  Accept: application/json',
        '  User-Agent: listwatch-probe',
        '  Authorization: Bearer <redacted, 43 chars>',
        "TLS: the server's certificate is NOT verified (insecure-skip-tls-verify: true)",
        'Credential:',
        '  bearer token from users[].user.token (43 characters)',
      ],
    );
    assert.ok(
      !describeProbe(t, { url: parseProbeUrl('/api/v1/pods') })
        .join('\n')
        .includes(token43),
    );
  });

  it('a token file (its line break trimmed), a CA file, another context', async () => {
    const tokenFile = write('token.txt', `${token43}\n`);
    const file = write(
      'token-file',
      kubeconfig(
        { 'token-file': tokenFile },
        { server: 'https://10.0.0.1:6443', 'certificate-authority': '/etc/ca.crt' },
      ),
    );
    const t = await loadClusterTarget(file, 'other');
    assert.strictEqual(t.context, 'other');
    assert.deepStrictEqual(t.credential.lines, [`bearer token read from token-file ${tokenFile}`]);
    assert.strictEqual(t.credential.authorization, 'Bearer <redacted, 43 chars>');
    assert.strictEqual(
      t.tls,
      "the server's certificate is verified against certificate-authority /etc/ca.crt",
    );
  });

  it('an exec plugin: its command, args and env named; nothing run', async () => {
    const marker = path.join(dir, 'ran');
    const file = write(
      'exec',
      kubeconfig({
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: 'sh',
          args: ['-c', `touch ${marker}`],
          env: [{ name: 'AWS_PROFILE', value: 'prod' }],
        },
      }),
    );
    const t = await loadClusterTarget(file);
    assert.deepStrictEqual(t.credential.lines, [
      `exec plugin: RUNS the program "sh" "-c" ${JSON.stringify(`touch ${marker}`)} with env AWS_PROFILE (client.authentication.k8s.io/v1beta1) before the first request, for an ExecCredential`,
    ]);
    assert.strictEqual(t.credential.authorization, undefined);
    describeProbe(t, { url: parseProbeUrl('/api/v1/pods') });
    assert.ok(!fs.existsSync(marker));
  });

  it('a client certificate file: its subject', async () => {
    const { cert, key } = generateSelfSignedCertKey(Date.now());
    const certFile = write('client.crt', cert);
    const keyFile = write('client.key', key);
    const file = write(
      'cert',
      kubeconfig({ 'client-certificate': certFile, 'client-key': keyFile }),
    );
    const t = await loadClusterTarget(file);
    assert.deepStrictEqual(t.credential.lines, [
      `client certificate (from client-certificate ${certFile}): subject CN=listwatch`,
    ]);
    assert.strictEqual(t.credential.authorization, undefined);
  });

  const broken: Array<
    [string, string | Record<string, unknown>, string | undefined, (f: string) => string]
  > = [
    ['a missing file', '', undefined, (f) => `kubeconfig ${f}-absent: no such file`],
    [
      'an unknown context',
      kubeconfig({ token: 't' }),
      'staging',
      (f) =>
        `context was not found for specified context: staging (kubeconfig ${f} has contexts prod-admin, other)`,
    ],
    [
      'no current-context',
      { ...kubeconfig({ token: 't' }), 'current-context': '' },
      undefined,
      (f) =>
        `kubeconfig ${f} has no current-context: name one with --context (its contexts: prod-admin, other)`,
    ],
    ['not YAML', 'clusters: [', undefined, (f) => `kubeconfig ${f}: cannot be read: `],
    [
      'a cluster without server',
      { ...kubeconfig({ token: 't' }), clusters: [{ name: 'prod', cluster: {} }] },
      undefined,
      (f) => `kubeconfig ${f}: cannot be read: clusters[0].cluster.server is missing`,
    ],
  ];
  for (const [name, doc, context, message] of broken)
    it(`${name} is named with the kubeconfig`, async () => {
      const file = write(name.replace(/\W+/g, '-'), doc);
      const target = name === 'a missing file' ? `${file}-absent` : file;
      await assert.rejects(loadClusterTarget(target, context), (e: Error) => {
        assert.ok(e.message.startsWith(message(file)), `${e.message}\nwanted ${message(file)}`);
        return true;
      });
    });

  it('lists the contexts for a picker', async () => {
    const file = write('contexts', kubeconfig({ token: 't' }));
    assert.deepStrictEqual(await kubeconfigContexts(file), {
      contexts: ['prod-admin', 'other'],
      current: 'prod-admin',
    });
  });

  it('the default kubeconfig: $KUBECONFIG (its first file), else ~/.kube/config', () => {
    assert.strictEqual(defaultKubeconfigPath({ KUBECONFIG: `/a/k${path.delimiter}/b/k` }), '/a/k');
    assert.strictEqual(defaultKubeconfigPath({}), path.join(os.homedir(), '.kube', 'config'));
  });

  it('the CLI prints the plan and refuses without --yes when stdin is not a terminal', async () => {
    const file = write('cli', kubeconfig({ token: token43 }));
    let out = '';
    let err = '';
    const io = {
      out: (t: string) => void (out += t),
      err: (t: string) => void (err += t),
      stdinLines: async function* () {},
    };
    const saved = process.stdin.isTTY;
    process.stdin.isTTY = false;
    try {
      const code = await runCli(['probe', '--kubeconfig', file, '/api/v1/pods?limit=2'], io);
      assert.strictEqual(code, 1);
    } finally {
      process.stdin.isTTY = saved;
    }
    assert.ok(out.includes('GET https://10.0.0.1:6443/api/v1/pods?limit=2\n'), out);
    assert.ok(out.includes('Authorization: Bearer <redacted, 43 chars>'), out);
    assert.strictEqual(
      err,
      'listwatch: not sending: stdin is not a terminal, so there is nobody to confirm; add --yes to send these requests\n',
    );
  });

  it('the CLI: a bad URL is an error naming it (exit 1), a missing URL a usage error (exit 2)', async () => {
    let err = '';
    const io = {
      out: () => {},
      err: (t: string) => void (err += t),
      stdinLines: async function* () {},
    };
    assert.strictEqual(await runCli(['probe', '/api/v1/pods/x/y/z'], io), 1);
    assert.ok(err.startsWith('listwatch probe: "/api/v1/pods/x/y/z": not a LIST'), err);
    assert.strictEqual(await runCli(['probe'], io), 2);
  });
});
