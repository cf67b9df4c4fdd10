// Mirrors k8s.io/apiserver pkg/endpoints/handlers/responsewriters/writers.go (release-1.36):
// WriteObjectNegotiated and ErrorNegotiated for JSON, the one media type until negotiation.ts
// answers Accept. Objects are written as Go's encoding/json writes them (HTML characters escaped,
// a trailing newline from json.Encoder).
import type { ServerResponse } from 'node:http';
import { goJsonMarshal, type GoJsonValue } from '../../engine/encoding/go-json';
import { errorToAPIStatus, statusToJSON, suggestsClientDelay } from '../../engine/storage/errors';

/** Writes `json` (one JSON document) with `code`. */
export function writeRawJSON(res: ServerResponse, code: number, json: string): void {
  const body = json + '\n';
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** WriteObjectNegotiated for JSON: the object as Go marshals it. */
export function writeObject(res: ServerResponse, code: number, obj: unknown): void {
  writeRawJSON(res, code, goJsonMarshal(obj as GoJsonValue));
}

/** ErrorNegotiated: the error's Status with its code, and Retry-After when it suggests a delay. */
export function writeError(res: ServerResponse, err: unknown): void {
  const status = errorToAPIStatus(err);
  const retry = suggestsClientDelay(err);
  if (retry !== undefined) res.setHeader('Retry-After', String(retry));
  writeRawJSON(res, status.code ?? 500, statusToJSON(status));
}
