// Mirrors k8s.io/apiserver pkg/authentication/request/bearertoken/bearertoken.go,
// pkg/endpoints/filters/authentication.go and authn_audit.go's getAuthMethods (release-1.36): the
// bearer token of the Authorization header, checked against the server's one token; anything else
// gets the Unauthorized Status, and its audit event says which methods were attempted.
// Deliberate difference: one static token (kube-apiserver's --token-auth-file with one line), and
// no anonymous access (upstream lets anonymous users read /healthz, /version and discovery).
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Status } from '../../engine';
import { newUnauthorized } from '../../engine/http-face';
import { kubeconfigName } from '../kubeconfig';

/**
 * user.Info of the token's user: the kubeconfig's user, in system:masters (the static token file
 * line `token,listwatch,,system:masters`; system:authenticated is added by the authenticator
 * group union, as upstream's authenticatedGroupAdder does).
 */
export const servedUser = {
  username: kubeconfigName,
  groups: ['system:masters', 'system:authenticated'],
} as const;

/** The Status of every 401 (responsewriters.ErrorNegotiated of errors.NewUnauthorized("Unauthorized")). */
export const unauthorizedStatus: Status = newUnauthorized('Unauthorized').status;

/** The token of `Authorization: Bearer <token>` (scheme case-insensitive), or undefined. */
export function bearerTokenOf(req: IncomingMessage): string | undefined {
  const auth = (req.headers.authorization ?? '').trim();
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return undefined;
  // An empty token ("Bearer  x") is no token, as upstream's bearertoken authenticator says.
  return parts[1] === '' ? undefined : parts[1];
}

/** Whether the request carries `token`, compared in constant time. */
export function isAuthenticated(req: IncomingMessage, token: string): boolean {
  const got = bearerTokenOf(req);
  if (got === undefined) return false;
  const a = Buffer.from(got);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * authn_audit.go getAuthMethods: the failed authentication's audit message, naming the methods
 * the request attempted (x509 never: the server asks for no client certificate).
 */
export function getAuthMethods(req: IncomingMessage): string {
  const authMethods: string[] = [];
  const auth = (req.headers.authorization ?? '').trim();
  if (isBasicAuth(req.headers.authorization ?? '')) authMethods.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0].toLowerCase() === 'bearer') authMethods.push('bearer');
  const q = (req.url ?? '').indexOf('?');
  const accessToken = new URLSearchParams(q < 0 ? '' : (req.url ?? '').slice(q + 1)).get(
    'access_token',
  );
  if ((accessToken ?? '').trim().length > 0) authMethods.push('access_token');
  if (authMethods.length > 0) return `Authentication failed, attempted: ${authMethods.join(', ')}`;
  return 'Authentication failed, no credentials provided';
}

/** Go's Request.BasicAuth ok: `Basic ` (any case), standard base64 of `user:password`. */
function isBasicAuth(header: string): boolean {
  const prefix = 'basic ';
  if (header.length < prefix.length || header.slice(0, prefix.length).toLowerCase() !== prefix)
    return false;
  const encoded = header.slice(prefix.length);
  // base64.StdEncoding: padded, no other characters (Node's decoder would skip them).
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded))
    return false;
  return Buffer.from(encoded, 'base64').toString('latin1').includes(':');
}
