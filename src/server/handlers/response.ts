// Mirrors k8s.io/apiserver pkg/endpoints/handlers/responsewriters/writers.go (release-1.36):
// WriteObjectNegotiated and ErrorNegotiated for JSON, the one media type until negotiation.ts
// answers Accept. Objects are written as Go's encoding/json writes them (HTML characters escaped,
// a trailing newline from json.Encoder).
import type { ServerResponse } from 'node:http';
import { goJsonMarshal, type GoJsonValue } from '../../engine/encoding/go-json';
import { errorToAPIStatus, suggestsClientDelay } from '../../engine/storage/errors';
import type { GroupResource } from '../../engine/storage/group-resource';
import { statusBody, statusCode, statusForError, type StorageOperation } from '../status';

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

/** What a storage error is interpreted for: the resource, the object's name, the registry operation. */
export interface ErrorQualification {
  resource: GroupResource;
  name: string;
  operation: StorageOperation;
}

/**
 * ErrorNegotiated: the error's Status (a storage error interpreted as the registry does for
 * `qualified`) with its code, and Retry-After when it suggests a delay.
 */
export function writeError(
  res: ServerResponse,
  err: unknown,
  qualified?: ErrorQualification,
): void {
  const status = qualified
    ? statusForError(err, qualified.resource, qualified.name, qualified.operation)
    : errorToAPIStatus(err);
  const retry = suggestsClientDelay(err);
  if (retry !== undefined) res.setHeader('Retry-After', String(retry));
  const body = statusBody(status);
  res.writeHead(statusCode(status), {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
