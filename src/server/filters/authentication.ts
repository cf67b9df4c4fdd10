// Mirrors k8s.io/apiserver pkg/authentication/request/bearertoken/bearertoken.go and
// pkg/endpoints/filters/authentication.go (release-1.36): the bearer token of the Authorization
// header, checked against the server's one token; anything else gets the Unauthorized Status.
// Deliberate difference: one static token (kube-apiserver's --token-auth-file with one line), and
// no anonymous access (upstream lets anonymous users read /healthz, /version and discovery).
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The body of every 401 (responsewriters.ErrorNegotiated of errors.NewUnauthorized("Unauthorized")). */
export const unauthorizedStatusJSON =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}';

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
