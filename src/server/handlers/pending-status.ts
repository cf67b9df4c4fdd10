// Temporary: the apierrors constructors (k8s.io/apimachinery pkg/api/errors/errors.go,
// release-1.36) the handlers need before src/server/status.ts (serve-status) lands; deleted then.
import { StatusError } from '../../engine/storage/errors';
import { groupResourceString, type GroupResource } from '../../engine/storage/group-resource';

/** errors.OptimisticLockErrorMsg (the registry's resourceVersion precondition on update). */
export const optimisticLockErrorMsg =
  'the object has been modified; please apply your changes to the latest version and try again';

/** errors.NewConflict: 409 `Operation cannot be fulfilled on <resource> "<name>": <err>`. */
export function newConflict(gr: GroupResource, name: string, err: string): StatusError {
  const details: Record<string, string> = {};
  if (name) details.name = name;
  if (gr.group) details.group = gr.group;
  if (gr.resource) details.kind = gr.resource;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Operation cannot be fulfilled on ${groupResourceString(gr)} ${JSON.stringify(name)}: ${err}`,
    reason: 'Conflict',
    details,
    code: 409,
  });
}

/** The NotFound handler's 404: no route for the path. */
export function newPathNotFound(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
}

/** errors.NewMethodNotSupported: 405 `<action> is not supported on resources of kind "<resource>"`. */
export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  const details: Record<string, string> = { kind: gr.resource };
  if (gr.group) details.group = gr.group;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${action} is not supported on resources of kind ${JSON.stringify(groupResourceString(gr))}`,
    reason: 'MethodNotAllowed',
    details,
    code: 405,
  });
}

/** errors.NewRequestEntityTooLargeError: 413 `Request entity too large: <message>`. */
export function newRequestEntityTooLargeError(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Request entity too large: ${message}`,
    reason: 'RequestEntityTooLarge',
    code: 413,
  });
}
