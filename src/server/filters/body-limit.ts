// Mirrors k8s.io/apiserver pkg/endpoints/handlers/rest.go limitedReadBody (release-1.36) on a
// Node request: kube-apiserver's default --max-request-body-bytes (3 MiB); a body past the limit
// is a 413 without being read to its end (the connection is then closed). LimitedBody is the
// Node-free accumulator; limitedReadBody feeds it a request.
import type { IncomingMessage } from 'node:http';
import type { StatusError } from '../../engine';
import { newRequestEntityTooLargeError } from '../../engine/http-face';

/** genericapiserver Config.MaxRequestBodyBytes: 3 MiB (kube-apiserver --max-request-bytes default). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/**
 * limitedReadBody (rest.go lines 372-389): reads at most limit+1 bytes; a body longer than the
 * limit is a 413 `Request entity too large: limit is 3145728`. Feed it the body's chunks as they
 * arrive; stop reading at the first error.
 */
export class LimitedBody {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  constructor(readonly limit = maxRequestBodyBytes) {}

  /** Adds a chunk; returns the 413 once the body is over the limit (limit <= 0: no limit). */
  push(chunk: Uint8Array): StatusError | undefined {
    this.length += chunk.length;
    if (this.limit > 0 && this.length > this.limit) return tooLarge(this.limit);
    this.chunks.push(chunk);
    return undefined;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

function tooLarge(limit: number): StatusError {
  return newRequestEntityTooLargeError(`limit is ${limit}`);
}

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
      return reject(tooLarge(limit));
    }
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.from(body.bytes())));
    req.on('error', reject);
  });
}
