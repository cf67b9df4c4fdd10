// No upstream counterpart: a cluster's error answer in words. The body is a metav1.Status as
// k8s.io/apiserver's responsewriters write it (code, reason, message); the message then names the
// request and the kubeconfig input the error is about (the user for a 401/403).
import type { ClientError } from '../run/trace/trace-format';
import { visibleText } from '../format/visible-text';
import type { ClusterTarget } from './kubeconfig-target';

/** The Status of an error body (or the code alone when the body is not a Status). */
export function statusOfBody(body: string, code: number): ClientError {
  try {
    const s = JSON.parse(body) as {
      kind?: unknown;
      code?: unknown;
      reason?: unknown;
      message?: unknown;
    };
    if (s && s.kind === 'Status')
      return {
        code: typeof s.code === 'number' ? s.code : code,
        reason: typeof s.reason === 'string' ? s.reason : '',
        message: typeof s.message === 'string' ? s.message : '',
      };
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return { code, reason: '', message: body.slice(0, 200).trim() };
}

/** `GET /api/v1/pods?limit=2: 401 Unauthorized: Unauthorized (…whose credential was refused)`. */
export function errorMessage(t: ClusterTarget, request: string, e: ClientError): string {
  const hint =
    e.code === 401
      ? ` (the cluster refused the credential of user "${t.user}" in kubeconfig ${t.kubeconfig}, context "${t.context}")`
      : e.code === 403
        ? ` (user "${t.user}" of kubeconfig ${t.kubeconfig}, context "${t.context}", is authenticated but not allowed this GET)`
        : '';
  const reason = e.reason ? ` ${e.reason}` : '';
  return visibleText(`GET ${request}: ${e.code}${reason}: ${e.message || '(no message)'}${hint}`);
}
