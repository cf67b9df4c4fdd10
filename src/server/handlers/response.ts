// Mirrors k8s.io/apiserver pkg/endpoints/handlers/responsewriters/writers.go (release-1.36)
// WriteObjectNegotiated and ErrorNegotiated, with response.go transformResponseObject: the object
// transformed as negotiated (a Table, PartialObjectMetadata) and written as Go's encoding/json
// writes it (HTML characters escaped, a trailing newline from json.Encoder; `pretty` indented by
// json.MarshalIndent, without one). An error is negotiated as any object (indented for curl).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorToAPIStatus, type GroupResource, type KubeList, type KubeObject } from '../../engine';
import {
  goJsonIndent,
  goJsonMarshal,
  goJsonMarshalIndent,
  type GoJsonValue,
  suggestsClientDelay,
} from '../../engine/http-face';
import { errorIsIndented } from '../negotiation';
import { transformObject } from '../transform-response';
import type { RequestScope } from './request-scope';
import { noteResponseStatus } from '../response-status';
import { statusBody, statusCode, statusForError, type StorageOperation } from '../status';

/** Writes `json` (one JSON document) with `code`. */
export function writeRawJSON(res: ServerResponse, code: number, json: string): void {
  writeJSONBody(res, code, json + '\n');
}

/** Writes a JSON body that already ends with json.Encoder's newline. */
export function writeJSONBody(res: ServerResponse, code: number, body: string | Buffer): void {
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Writes a JSON body given as pieces (a LIST's head, items and end), in one write to the socket:
 * the pieces are not copied into one buffer first.
 */
export function writeJSONPieces(res: ServerResponse, code: number, pieces: Uint8Array[]): void {
  let length = 0;
  for (const p of pieces) length += p.length;
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': length });
  // Corked until end() (which uncorks fully): the pieces leave in one writev.
  res.cork();
  for (let i = 0; i < pieces.length - 1; i++) res.write(pieces[i]);
  res.end(pieces[pieces.length - 1]);
}

/**
 * WriteObjectNegotiated for JSON: the object as Go's serializer writes it, json.Encoder's line or
 * (pretty) json.MarshalIndent's bytes.
 */
export function writeObject(res: ServerResponse, code: number, obj: unknown, pretty = false): void {
  if (pretty) writeJSONBody(res, code, goJsonMarshalIndent(obj as GoJsonValue));
  else writeRawJSON(res, code, goJsonMarshal(obj as GoJsonValue));
}

/** transformResponseObject: the result (an object or a list) as the scope negotiated it. */
export function writeResult(
  scope: RequestScope,
  code: number,
  result: KubeObject | KubeList,
): void {
  const { served, encoding } = scope;
  writeObject(
    scope.res,
    code,
    transformObject(result, encoding, served, scope.resources.clock.now()),
    encoding.pretty,
  );
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
  noteResponseStatus(res, status);
  writeErrorBody(res, statusCode(status), statusBody(status));
}

/**
 * ErrorNegotiated's write of a Status already marshalled (`body`, json.Encoder's line): as it is,
 * or indented when the request negotiates pretty output or no acceptable type (errorIsIndented).
 */
export function writeErrorBody(res: ServerResponse, code: number, body: string): void {
  const req = res.req as IncomingMessage | undefined;
  const indented =
    req !== undefined &&
    errorIsIndented({
      accept: req.headers.accept,
      userAgent: req.headers['user-agent'],
      query: queryOf(req.url),
    });
  writeJSONBody(res, code, indented ? goJsonIndent(body.trimEnd()) : body);
}

function queryOf(url: string | undefined): URLSearchParams {
  const q = url?.indexOf('?') ?? -1;
  return new URLSearchParams(q < 0 ? '' : (url as string).slice(q + 1));
}
