// No upstream counterpart: kube-apiserver serves any Host. A server on loopback that a browser can
// reach must refuse other names, or a page on evil.example whose DNS name is rebound to 127.0.0.1
// talks to it as the same origin (DNS rebinding). Only `127.0.0.1:<port>` and `localhost:<port>`
// are this server's names. The answer is 421 Misdirected Request (RFC 9110 §15.5.20: the server is
// not configured to answer for that authority), not 403: nothing about the caller's rights is
// wrong, and a Forbidden would send a kubectl user looking at RBAC.
import { StatusError } from '../../engine';

/** Whether `host` (the Host header) names this server listening on `port`. */
export function isOwnHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** The 421 Status for a request addressed to another name. */
export function misdirectedRequest(host: string | undefined, port: number): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `the Host header ${JSON.stringify(host ?? '')} is not this server's address (127.0.0.1:${port} or localhost:${port})`,
    reason: 'Misdirected',
    code: 421,
  });
}
