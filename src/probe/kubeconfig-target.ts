// No upstream counterpart (client-go's clientcmd does this for kubectl): a kubeconfig's context,
// cluster and user as the probe will use them, read through @kubernetes/client-node's KubeConfig,
// and described before anything is sent or run: the server, how its certificate is checked, the
// credential (redacted), the client certificate's subject, the exec plugin that would run.
// client-node is loaded lazily (kubeconfig-client.ts): it is large, and only a probe needs it.
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import type { KubeConfig } from '@kubernetes/client-node';
import { ProbeError } from './probe-error';
import { loadKubeConfigClass } from './kubeconfig-client';
import { redactAuthorization } from './redact';

/** How the user authenticates, as the probe announces it (never the secret itself). */
export interface CredentialDescription {
  /** One line per thing that will be sent or run, e.g. `bearer token from users[].user.token (64 characters)`. */
  lines: string[];
  /** The exec plugin the credential comes from (a program that will run), if any. */
  exec?: { command: string; args: string[]; apiVersion: string; env: string[] };
  /** The client certificate's subject (RFC 2253-ish, as Node prints it), if the user has one. */
  clientCertificateSubject?: string;
  /** The Authorization header as it will be shown (`Bearer <redacted, 64 chars>`); undefined: none known before an exec plugin runs. */
  authorization?: string;
}

export interface ClusterTarget {
  kubeconfig: string;
  context: string;
  cluster: string;
  user: string;
  /** The cluster's server URL, without a trailing slash. */
  server: string;
  /** How the server's certificate is checked, in words. */
  tls: string;
  credential: CredentialDescription;
  /** The loaded KubeConfig, its current context set to `context`. */
  kubeConfig: KubeConfig;
}

/** The context names of a kubeconfig and its current context (for a picker). */
export async function kubeconfigContexts(
  file: string,
): Promise<{ contexts: string[]; current: string }> {
  const kc = await loadFile(file);
  return { contexts: kc.getContexts().map((c) => c.name), current: kc.getCurrentContext() };
}

async function loadFile(file: string): Promise<KubeConfig> {
  const KubeConfigClass = await loadKubeConfigClass();
  const kc = new KubeConfigClass();
  try {
    kc.loadFromFile(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') throw new ProbeError(`kubeconfig ${file}: no such file`);
    throw new ProbeError(`kubeconfig ${file}: cannot be read: ${err.message}`);
  }
  return kc;
}

/** The raw `users[].user` entry (client-node folds token and token-file into one field). */
function rawUser(file: string, name: string): Record<string, unknown> {
  try {
    const doc = yaml.load(fs.readFileSync(file, 'utf8')) as {
      users?: Array<{ name?: string; user?: Record<string, unknown> }>;
    };
    return doc?.users?.find((u) => u.name === name)?.user ?? {};
  } catch {
    return {};
  }
}

function subjectOf(pem: Buffer, where: string): string {
  try {
    return new X509Certificate(pem).subject.split('\n').join(', ');
  } catch (e) {
    throw new ProbeError(`${where}: not a PEM certificate: ${(e as Error).message}`);
  }
}

/**
 * Loads `file`, selects `context` (default: its current-context) and describes what a probe would
 * send. Reads files (the kubeconfig, a client certificate), never runs the exec plugin.
 */
export async function loadClusterTarget(file: string, context?: string): Promise<ClusterTarget> {
  const kc = await loadFile(file);
  const names = kc.getContexts().map((c) => c.name);
  const name = context ?? kc.getCurrentContext();
  if (!name)
    throw new ProbeError(
      `kubeconfig ${file} has no current-context: name one with --context (its contexts: ${names.join(', ') || 'none'})`,
    );
  // kubectl's message for an unknown --context, then where it looked.
  if (!kc.getContextObject(name))
    throw new ProbeError(
      `context was not found for specified context: ${name} (kubeconfig ${file} has ${names.length ? `contexts ${names.join(', ')}` : 'no contexts'})`,
    );
  kc.setCurrentContext(name);
  const ctx = kc.getContextObject(name)!;
  const cluster = kc.getCurrentCluster();
  if (!cluster)
    throw new ProbeError(
      `kubeconfig ${file}: context "${name}" names cluster "${ctx.cluster}", which is not in clusters[]`,
    );
  const user = kc.getCurrentUser();
  const where = `kubeconfig ${file}, user "${ctx.user}"`;
  const tls = !cluster.server.startsWith('https:')
    ? 'plain HTTP (no TLS)'
    : cluster.skipTLSVerify
      ? "the server's certificate is NOT verified (insecure-skip-tls-verify: true)"
      : cluster.caFile
        ? `the server's certificate is verified against certificate-authority ${cluster.caFile}`
        : cluster.caData
          ? "the server's certificate is verified against the kubeconfig's certificate-authority-data"
          : "the server's certificate is verified against the system's certificate authorities";
  const credential: CredentialDescription = { lines: [] };
  if (user) {
    const raw = rawUser(file, user.name);
    if (user.exec) {
      const exec = user.exec as {
        command?: string;
        args?: string[];
        apiVersion?: string;
        env?: Array<{ name: string }>;
      };
      if (!exec.command) throw new ProbeError(`${where}: exec has no command`);
      credential.exec = {
        command: exec.command,
        args: exec.args ?? [],
        apiVersion: exec.apiVersion ?? '',
        env: (exec.env ?? []).map((e) => e.name),
      };
      credential.lines.push(
        `exec plugin: RUNS the program ${[exec.command, ...(exec.args ?? [])].map((a) => JSON.stringify(a)).join(' ')}${credential.exec.env.length ? ` with env ${credential.exec.env.join(', ')}` : ''} (${exec.apiVersion ?? 'no apiVersion'}) before the first request, for an ExecCredential`,
      );
    } else if (user.authProvider) {
      credential.lines.push(
        `auth-provider ${(user.authProvider as { name?: string }).name ?? '?'} (client-node's): its token is sent as Authorization: Bearer`,
      );
    }
    if (user.token) credential.authorization = redactAuthorization(`Bearer ${user.token.trim()}`);
    else if (user.username)
      credential.authorization = redactAuthorization(
        `Basic ${Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64')}`,
      );
    if (typeof raw.token === 'string' && raw.token !== '')
      credential.lines.push(
        `bearer token from users[].user.token (${raw.token.length} characters)`,
      );
    else if (typeof raw['token-file'] === 'string')
      credential.lines.push(`bearer token read from token-file ${raw['token-file']}`);
    if (user.username)
      credential.lines.push(
        `basic auth as user ${JSON.stringify(user.username)} (password redacted)`,
      );
    const certSource = user.certFile
      ? `client-certificate ${user.certFile}`
      : user.certData
        ? 'client-certificate-data'
        : undefined;
    if (certSource) {
      let pem: Buffer;
      try {
        pem = user.certFile
          ? fs.readFileSync(user.certFile)
          : Buffer.from(user.certData as string, 'base64');
      } catch (e) {
        throw new ProbeError(`${where}: ${certSource}: ${(e as Error).message}`);
      }
      credential.clientCertificateSubject = subjectOf(pem, `${where}: ${certSource}`);
      credential.lines.push(
        `client certificate (from ${certSource}): subject ${credential.clientCertificateSubject}`,
      );
    }
    if (credential.lines.length === 0) credential.lines.push('no credential (anonymous)');
  } else credential.lines.push(`no user "${ctx.user}" in users[]: no credential (anonymous)`);
  return {
    kubeconfig: file,
    context: name,
    cluster: cluster.name,
    user: ctx.user,
    server: cluster.server.replace(/\/+$/, ''),
    tls,
    credential,
    kubeConfig: kc,
  };
}
