// Mirrors k8s.io/apiserver pkg/endpoints/handlers/rest.go limitedReadBody (release-1.36) with
// kube-apiserver's default --max-request-body-bytes (3 MiB): a body past the limit is a 413
// without being read to its end.
import type { IncomingMessage } from 'node:http';
import { newRequestEntityTooLargeError } from '../handlers/pending-status';

/** GenericAPIServer's MaxRequestBodyBytes default: 3 MiB (etcd's 1.5 MiB request limit, doubled for the JSON). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/** Reads the body, rejecting with the 413 Status once more than `limit` bytes arrive. */
export function limitedReadBody(
  req: IncomingMessage,
  limit = maxRequestBodyBytes,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = (): void => {
      req.removeListener('data', onData);
      req.pause();
      reject(newRequestEntityTooLargeError(`limit is ${limit}`));
    };
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > limit) return tooLarge();
      chunks.push(c);
    };
    if (Number(req.headers['content-length']) > limit) return tooLarge();
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
