// No upstream counterpart: how the CLI reaches a running `listwatch serve`'s admin API
// (/debug/listwatch/v1/...) for `listwatch fault` and `listwatch clients`: the server URL and
// bearer token of the kubeconfig it wrote, one call, and a refusal printed with its Status message.
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import { type CliIo, UsageError, exitInvalid } from './command';

/** The server URL and bearer token of a kubeconfig's current context (else its first entries). */
export function readKubeconfig(text: string, file: string): { server: string; token: string } {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new UsageError(`${file}: not YAML: ${(e as Error).message}`);
  }
  const kc = (doc ?? {}) as {
    'current-context'?: string;
    contexts?: { name?: string; context?: { cluster?: string; user?: string } }[];
    clusters?: { name?: string; cluster?: { server?: string } }[];
    users?: { name?: string; user?: { token?: string } }[];
  };
  const ctx =
    kc.contexts?.find((c) => c.name === kc['current-context'])?.context ??
    kc.contexts?.[0]?.context;
  const cluster = kc.clusters?.find((c) => c.name === ctx?.cluster) ?? kc.clusters?.[0];
  const user = kc.users?.find((u) => u.name === ctx?.user) ?? kc.users?.[0];
  const server = cluster?.cluster?.server;
  const token = user?.user?.token;
  if (!server) throw new UsageError(`${file}: no clusters[].cluster.server`);
  if (!token) throw new UsageError(`${file}: no users[].user.token`);
  return { server: server.replace(/\/+$/, ''), token };
}

/** `--kubeconfig FILE` (required): its server URL and token. */
export function kubeconfigOption(file: unknown): { server: string; token: string } {
  if (typeof file !== 'string') throw new UsageError('--kubeconfig FILE is required');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--kubeconfig: ${(e as Error).message}`);
  }
  return readKubeconfig(text, file);
}

/**
 * The admin API's base URL: `listwatch serve` answers http and https on one loopback port, and
 * Node's fetch cannot skip verifying its self-signed certificate, so speak plain http to it.
 */
export function adminBase(server: string): string {
  return server.replace(/^https:\/\/(127\.0\.0\.1|localhost):/, 'http://$1:');
}

/**
 * One admin API call: its JSON answer (undefined when not JSON) and text, or the exit status after
 * printing why it failed (unreachable, or the Status message of a refusal) as `<command>: …`.
 */
export async function callAdminApi(
  command: string,
  io: CliIo,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ parsed: unknown; answer: string } | number> {
  let resp: Response;
  try {
    resp = await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
      },
      body: method === 'POST' ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    io.err(`${command}: ${url}: ${cause ?? (e as Error).message}\n`);
    return exitInvalid;
  }
  const answer = await resp.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    parsed = undefined;
  }
  if (!resp.ok) {
    const message = (parsed as { message?: string } | undefined)?.message ?? answer;
    io.err(`${command}: ${resp.status} ${message}\n`);
    return exitInvalid;
  }
  return { parsed, answer };
}
