// Mirrors k8s.io/apiserver pkg/endpoints/handlers/rest.go limitedReadBody (release-1.36) on a
// Node request: kube-apiserver's default --max-request-body-bytes (3 MiB); a body past the limit
// is a 413 without being read to its end (the connection is then closed).
import type { IncomingMessage } from 'node:http';
import { newRequestEntityTooLargeError } from '../../engine/storage/errors';
import { LimitedBody, maxRequestBodyBytes } from '../json-body';

/** Reads the body, rejecting with the 413 Status once more than `limit` bytes arrive. */
export function limitedReadBody(
  req: IncomingMessage,
  limit = maxRequestBodyBytes,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = new LimitedBody(limit);
    const onData = (c: Buffer): void => {
      const tooLarge = body.push(c);
      if (tooLarge === undefined) return;
      req.removeListener('data', onData);
      req.pause();
      reject(tooLarge);
    };
    if (limit > 0 && Number(req.headers['content-length']) > limit) {
      req.pause();
      return reject(newRequestEntityTooLargeError(`limit is ${limit}`));
    }
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.from(body.bytes())));
    req.on('error', reject);
  });
}
