// Tests for src/server/kubeconfig.ts and the kubeconfig ApiServer writes: the per-run certificate
// as certificate-authority-data (verified, not skipped), never written through a symbolic link,
// and a temporary one removed with its folder when the server stops.
import * as assert from 'assert';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { load } from 'js-yaml';
import { ApiServer } from '../../../src/server/api-server';
import { KubeconfigError, writeKubeconfig } from '../../../src/server/kubeconfig';
import { generateSelfSignedCertKey } from '../../../src/server/self-signed-certificate';

interface Kubeconfig {
  clusters: Array<{ name: string; cluster: Record<string, unknown> }>;
  users: Array<{ name: string; user: { token: string } }>;
  'current-context': string;
}

/** GET /version over https, trusting only the kubeconfig's certificate-authority-data. */
function verifiedGet(url: string, ca: string, token: string, servername?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${url}/version`,
      { ca, servername, rejectUnauthorized: true, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('kubeconfig', () => {
  let dir: string;
  const certificateAuthority = generateSelfSignedCertKey(Date.now()).cert;
  const base = { server: 'https://127.0.0.1:6443', token: 't0ken', certificateAuthority };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'listwatch-kubeconfig-test-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('writeKubeconfig refuses what is not a regular file, naming the path', () => {
    const cases: Array<{ name: string; make: (path: string) => void; message: RegExp }> = [
      {
        name: 'a symbolic link to a file',
        make: (p) => {
          writeFileSync(join(dir, 'target'), 'untouched');
          symlinkSync(join(dir, 'target'), p);
        },
        message: /^kubeconfig .*\/kubeconfig is a symbolic link: not following it/,
      },
      {
        name: 'a dangling symbolic link',
        make: (p) => symlinkSync(join(dir, 'target'), p),
        message: /^kubeconfig .*\/kubeconfig is a symbolic link: not following it/,
      },
      {
        name: 'a FIFO',
        make: (p) => execFileSync('mkfifo', [p]),
        message: /^kubeconfig .*\/kubeconfig is not a regular file: not writing the token to it$/,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const path = join(dir, 'kubeconfig');
        c.make(path);
        assert.throws(
          () => writeKubeconfig({ ...base, path }),
          (e: unknown) => e instanceof KubeconfigError && c.message.test(e.message),
        );
        if (existsSync(join(dir, 'target')))
          assert.strictEqual(readFileSync(join(dir, 'target'), 'utf8'), 'untouched');
        else assert.ok(!existsSync(join(dir, 'target')), 'the link target was not created');
      });
    }
  });

  it('rewrites an existing file whole, mode 0600', () => {
    const path = join(dir, 'kubeconfig');
    writeFileSync(path, 'x'.repeat(10_000), { mode: 0o644 });
    const written = writeKubeconfig({ ...base, path });
    assert.strictEqual(written.temporary, false);
    assert.strictEqual(statSync(path).mode & 0o777, 0o600);
    assert.ok(!readFileSync(path, 'utf8').includes('xxx'), 'the old text is gone');
    written.remove();
    assert.ok(existsSync(path), 'a kubeconfig written where asked stays');
  });

  it('a temporary one is removed with its folder', () => {
    const written = writeKubeconfig(base);
    assert.strictEqual(written.temporary, true);
    assert.ok(existsSync(written.path));
    written.remove();
    written.remove();
    assert.ok(!existsSync(dirname(written.path)));
  });

  it('names the certificate as certificate-authority-data, not insecure-skip-tls-verify', () => {
    const path = join(dir, 'kubeconfig');
    writeKubeconfig({ ...base, path });
    const cfg = load(readFileSync(path, 'utf8')) as Kubeconfig;
    assert.deepStrictEqual(cfg.clusters[0], {
      name: 'listwatch',
      cluster: {
        server: 'https://127.0.0.1:6443',
        'certificate-authority-data': Buffer.from(certificateAuthority).toString('base64'),
      },
    });
  });

  describe('ApiServer', () => {
    let server: ApiServer | undefined;
    afterEach(async () => server?.stop());

    it("is verified by its kubeconfig's certificate for 127.0.0.1 and localhost", async () => {
      server = await ApiServer.start({ port: 0 });
      const cfg = load(readFileSync(server.kubeconfigPath, 'utf8')) as Kubeconfig;
      const ca = Buffer.from(
        cfg.clusters[0].cluster['certificate-authority-data'] as string,
        'base64',
      ).toString();
      assert.strictEqual(cfg.clusters[0].cluster['insecure-skip-tls-verify'], undefined);
      assert.strictEqual(await verifiedGet(server.httpsUrl, ca, server.token), 200);
      const byName = `https://localhost:${server.port}`;
      assert.strictEqual(await verifiedGet(byName, ca, server.token, 'localhost'), 200);
      // Another run's certificate is not trusted.
      await assert.rejects(verifiedGet(server.httpsUrl, certificateAuthority, server.token), {
        code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      });
    });

    it('removes its temporary kubeconfig and folder on stop', async () => {
      server = await ApiServer.start({ port: 0 });
      const folder = dirname(server.kubeconfigPath);
      assert.ok(existsSync(server.kubeconfigPath));
      await server.stop();
      server = undefined;
      assert.ok(!existsSync(folder), `${folder} is left behind`);
    });

    it('refuses a kubeconfig path that is a symbolic link, and stops what it started', async () => {
      const path = join(dir, 'kubeconfig');
      symlinkSync(join(dir, 'elsewhere'), path);
      const started = ApiServer.start({ port: 0, kubeconfigPath: path });
      started.then((s) => (server = s)).catch(() => undefined);
      await assert.rejects(started, {
        message: `kubeconfig ${path} is a symbolic link: not following it (name the file itself, or a new path)`,
      });
      assert.ok(!existsSync(join(dir, 'elsewhere')));
    });
  });
});
