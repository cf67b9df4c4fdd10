// No upstream counterpart: a kubeconfig (client-go tools/clientcmd/api/v1 Config) for the live
// server: cluster and context `listwatch`, a user with the server's bearer token, and the run's
// self-signed certificate as the cluster's certificate-authority-data, so clients verify the
// server instead of skipping it. The file is mode 0600 as kubectl writes its own, since the
// token is the only credential; a temporary one is removed with its folder when the server stops.
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { dump } from 'js-yaml';

/** The cluster, user and context name. */
export const kubeconfigName = 'listwatch';

export interface KubeconfigOptions {
  /** `https://127.0.0.1:<port>`. */
  server: string;
  token: string;
  /** The serving certificate (PEM): self-signed, so it is its own certificate authority. */
  certificateAuthority: string;
  /** Where to write it (default: `kubeconfig` in a new temporary directory). */
  path?: string;
}

/** Why the kubeconfig could not be written (a symbolic link, not a regular file), naming the path. */
export class KubeconfigError extends Error {}

/** A written kubeconfig; remove() deletes it and its folder if both were temporary. */
export interface WrittenKubeconfig {
  path: string;
  /** True when the server made the folder (no path was given): remove() deletes it. */
  temporary: boolean;
  /** Idempotent and synchronous (it also runs from process 'exit'). */
  remove(): void;
}

/** The kubeconfig's YAML text. */
export function kubeconfigYAML(
  o: Pick<KubeconfigOptions, 'server' | 'token' | 'certificateAuthority'>,
): string {
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: kubeconfigName,
        cluster: {
          server: o.server,
          'certificate-authority-data': Buffer.from(o.certificateAuthority).toString('base64'),
        },
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

// O_NOFOLLOW: a symbolic link at the path fails the open itself (ELOOP), so no check-then-open
// window lets one be swapped in. O_NONBLOCK: a FIFO there fails (ENXIO) instead of waiting for a
// reader. Windows has neither (0: a plain open).
const openFlags =
  constants.O_WRONLY |
  constants.O_CREAT |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

/** Writes the kubeconfig (mode 0600), never through a symbolic link. */
export function writeKubeconfig(o: KubeconfigOptions): WrittenKubeconfig {
  const temporary = o.path === undefined;
  const path = o.path ?? join(mkdtempSync(join(tmpdir(), 'listwatch-')), 'kubeconfig');
  const folder = dirname(path);
  let removed = false;
  const remove = (): void => {
    if (removed || !temporary) return;
    removed = true;
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    if (!temporary) mkdirSync(folder, { recursive: true });
    let fd: number;
    try {
      fd = openSync(path, openFlags, 0o600);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP')
        throw new KubeconfigError(
          `kubeconfig ${path} is a symbolic link: not following it (name the file itself, or a new path)`,
        );
      if (code === 'ENXIO') throw notRegular(path);
      throw e;
    }
    try {
      if (!fstatSync(fd).isFile()) throw notRegular(path);
      // Truncated only once it is known to be a regular file; an existing file keeps its mode on
      // open, so set it before the token goes in.
      ftruncateSync(fd);
      fchmodSync(fd, 0o600);
      writeSync(fd, kubeconfigYAML(o));
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    remove();
    throw e;
  }
  return { path, temporary, remove };
}

function notRegular(path: string): KubeconfigError {
  return new KubeconfigError(
    `kubeconfig ${path} is not a regular file: not writing the token to it`,
  );
}
