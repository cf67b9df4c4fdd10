// No upstream counterpart (client-go's rest.Config + transport do this for kubectl): the
// kubeconfig's credentials and TLS applied through client-node's KubeConfig.applyToHTTPSOptions
// (token, token-file, client certificates, exec plugins, insecure-skip-tls-verify, the CA), and
// read-only GETs sent with Node's own http/https so that the probe sees the raw bytes, the
// response headers (Audit-Id) and the timing. Every request is a GET: the probe never writes.
import * as http from 'node:http';
import * as https from 'node:https';
import type { ClusterTarget } from './kubeconfig-target';
import { ProbeError } from './probe-error';
import { redactAuthorization } from './redact';

/** The User-Agent of every probe request (the apiserver's audit log and metrics name it). */
export const probeUserAgent = 'listwatch-probe';

export interface ClusterConnection {
  target: ClusterTarget;
  /** The request headers, the credential included (never print them: see shownHeaders). */
  headers: Record<string, string>;
  agent: http.Agent;
}

/** The headers as the probe announces them: the credential redacted. */
export function shownHeaders(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(
    ([k, v]) => `${k}: ${k.toLowerCase() === 'authorization' ? redactAuthorization(v) : v}`,
  );
}

/** The headers the probe sends besides the credential. */
export function baseHeaders(accept: string): Record<string, string> {
  return { Accept: accept, 'User-Agent': probeUserAgent };
}

/**
 * The kubeconfig's credentials applied: this runs the exec plugin, if the user has one (the caller
 * has said so and been told to go on), and reads token and certificate files.
 */
export async function connect(target: ClusterTarget, accept: string): Promise<ClusterConnection> {
  const opts: https.RequestOptions & { headers?: Record<string, string> } = { headers: {} };
  try {
    await target.kubeConfig.applyToHTTPSOptions(opts);
  } catch (e) {
    const what = target.credential.exec
      ? `the exec plugin ${JSON.stringify(target.credential.exec.command)} failed`
      : 'its credentials could not be applied';
    const detail = ((e as Error).message ?? String(e)).trim();
    throw new ProbeError(
      `kubeconfig ${target.kubeconfig}, user "${target.user}": ${what}${detail ? `: ${detail}` : ''}`,
    );
  }
  const headers: Record<string, string> = { ...baseHeaders(accept) };
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    // client-go trims a token file's line break (client-node does not): a header cannot carry it.
    headers[k] = String(v).trim();
  }
  if (opts.auth) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  return { target, headers, agent: opts.agent as http.Agent };
}

export interface ClusterResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** From sending to the whole body read, and to the response's first byte. */
  ms: number;
  firstByteMs: number;
}

function requestOptions(c: ClusterConnection, path: string): { url: URL; mod: typeof https } {
  const url = new URL(c.target.server + path);
  return { url, mod: url.protocol === 'http:' ? (http as unknown as typeof https) : https };
}

/** The words for a failure to reach the server, naming it and where it came from. */
function unreachable(c: ClusterConnection, e: Error): ProbeError {
  const t = c.target;
  return new ProbeError(
    `cannot reach the cluster "${t.cluster}" at ${t.server} (kubeconfig ${t.kubeconfig}, context "${t.context}"): ${e.message}`,
  );
}

/** GET `path` (path and query) and read the whole answer. */
export function clusterGet(
  c: ClusterConnection,
  path: string,
  signal?: AbortSignal,
): Promise<ClusterResponse> {
  const { url, mod } = requestOptions(c, path);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      { method: 'GET', headers: c.headers, agent: c.agent, signal },
      (res) => {
        const firstByteMs = performance.now() - started;
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', (e) => reject(unreachable(c, e)));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
            firstByteMs,
          }),
        );
      },
    );
    req.on('error', (e) => reject(signal?.aborted ? e : unreachable(c, e)));
    req.end();
  });
}

export interface WatchStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Resolves when the stream ends: `closed` by the probe (its time was up), or by the server. */
  ended: Promise<'closed' | 'server'>;
  /** Ends the watch (closes the connection). */
  close(): void;
}

/**
 * GET a watch and hand each line (one watch event, JSON) to `onLine` as it arrives, with the
 * ms since the request was sent. A non-200 answer's body comes back whole as one line.
 */
export function clusterWatch(
  c: ClusterConnection,
  path: string,
  onLine: (line: string, ms: number) => void,
): Promise<WatchStream> {
  const { url, mod } = requestOptions(c, path);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let closedByUs = false;
    const req = mod.request(url, { method: 'GET', headers: c.headers, agent: c.agent }, (res) => {
      let buffered = '';
      res.setEncoding('utf8');
      const ended = new Promise<'closed' | 'server'>((done) => {
        res.on('data', (d: string) => {
          buffered += d;
          for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
            const line = buffered.slice(0, nl);
            buffered = buffered.slice(nl + 1);
            if (line.trim() !== '') onLine(line, performance.now() - started);
          }
        });
        const finish = (): void => {
          if (buffered.trim() !== '') onLine(buffered, performance.now() - started);
          buffered = '';
          done(closedByUs ? 'closed' : 'server');
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        ended,
        close: () => {
          closedByUs = true;
          req.destroy();
        },
      });
    });
    req.on('error', (e) => {
      if (!closedByUs) reject(unreachable(c, e));
    });
    req.end();
  });
}
