// No upstream counterpart: a kubeconfig (client-go tools/clientcmd/api/v1 Config) for the live
// server: cluster and context `listwatch`, a user with the server's bearer token. The file is
// mode 0600 as kubectl writes its own, since the token is the only credential.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { dump } from 'js-yaml';

/** The cluster, user and context name. */
export const kubeconfigName = 'listwatch';

export interface KubeconfigOptions {
  /** `http://127.0.0.1:<port>`. */
  server: string;
  token: string;
  /** Where to write it (default: `kubeconfig` in a new temporary directory). */
  path?: string;
}

/** The kubeconfig's YAML text. */
export function kubeconfigYAML(o: Pick<KubeconfigOptions, 'server' | 'token'>): string {
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: kubeconfigName,
        // client-node refuses an http server unless TLS verification is marked skipped.
        cluster: { server: o.server, 'insecure-skip-tls-verify': true },
      },
    ],
    users: [{ name: kubeconfigName, user: { token: o.token } }],
    contexts: [
      {
        name: kubeconfigName,
        context: { cluster: kubeconfigName, user: kubeconfigName, namespace: 'default' },
      },
    ],
    'current-context': kubeconfigName,
    preferences: {},
  });
}

/** Writes the kubeconfig (mode 0600) and returns its path. */
export function writeKubeconfig(o: KubeconfigOptions): string {
  const path = o.path ?? join(mkdtempSync(join(tmpdir(), 'listwatch-')), 'kubeconfig');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, kubeconfigYAML(o), { mode: 0o600 });
  // An existing file keeps its mode on write: set it.
  chmodSync(path, 0o600);
  return path;
}
