// Mirrors k8s.io/apiserver pkg/server/secure_serving.go SecureServingInfo.Serve (release-1.36):
// the http.Server settings kube-apiserver serves with, as Go's net/http applies them to HTTP/1.1
// (server.go conn.serve, readRequest), on Node's http/https servers and the one listener both share.
// Deliberate difference: a cap on open connections (kube-apiserver has none: it relies on the
// process's file-descriptor limit and APF), so that idle sockets cannot take every descriptor;
// the connection past it is answered a 503 Status and closed.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ServingLimits {
  /** http.Server.ReadHeaderTimeout: a request's headers must arrive within it (also the TLS handshake's). */
  readHeaderTimeoutMs: number;
  /** http.Server.IdleTimeout: how long a keep-alive connection may wait for its next request. */
  idleTimeoutMs: number;
  /** http.Server.MaxHeaderBytes: the request line and headers, past which Go answers 431. */
  maxHeaderBytes: number;
  /** Open connections past which a new one is answered 503 and closed (see maxConnectionsFor). */
  maxConnections: number;
}

/** ReadHeaderTimeout: 32 s, "just shy of requestTimeoutUpperBound" (34 s). */
export const readHeaderTimeoutMs = 32_000;
/** IdleTimeout: 90 s, which "matches http.DefaultTransport keep-alive timeout". */
export const idleTimeoutMs = 90_000;
/** MaxHeaderBytes: 1 << 20. */
export const maxHeaderBytes = 1 << 20;

// net/http reads up to MaxHeaderBytes plus this much for the request line (initialReadLimitSize).
const headerSlackBytes = 4096;

// The descriptors kept for everything but client connections: etcd's (a spawned etcd's pipes and
// its gRPC connections), the audit log, the kubeconfig, Node's own.
const reservedFileDescriptors = 1024;
// Where the process's descriptor limit cannot be read (not Linux): a number below the usual soft
// limits of a developer's shell (macOS's launchd gives 256, where accept's EMFILE stops it first).
const fallbackMaxConnections = 4096;

/** The connection cap: the process's open-file limit less what the server needs for itself. */
export function maxConnectionsFor(openFilesLimit: number | undefined): number {
  if (openFilesLimit === undefined || !Number.isFinite(openFilesLimit))
    return fallbackMaxConnections;
  return Math.max(64, openFilesLimit - reservedFileDescriptors);
}

/** The soft "Max open files" of this process (/proc/self/limits), or undefined. */
export function openFilesLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const m = /^Max open files\s+(\S+)/m.exec(text);
  if (!m || m[1] === 'unlimited') return undefined;
  const n = Number(m[1]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

export function defaultServingLimits(): ServingLimits {
  return {
    readHeaderTimeoutMs,
    idleTimeoutMs,
    maxHeaderBytes,
    maxConnections: maxConnectionsFor(openFilesLimit()),
  };
}

/**
 * For tests only: `LISTWATCH_SERVING_LIMITS` holds a JSON object of ServingLimits fields to
 * override (e.g. `{"readHeaderTimeoutMs":500}`), so that a test need not wait 32 s or open
 * 19,000 sockets. Anything else in it is an error, so that a typo does not pass silently.
 */
export function servingLimitsFromEnv(
  env: Record<string, string | undefined>,
): Partial<ServingLimits> {
  const text = env.LISTWATCH_SERVING_LIMITS;
  if (text === undefined || text === '') return {};
  const value = JSON.parse(text) as Record<string, unknown>;
  const known = defaultServingLimits();
  for (const [k, v] of Object.entries(value))
    if (!(k in known) || typeof v !== 'number' || !(v > 0))
      throw new Error(
        `LISTWATCH_SERVING_LIMITS: ${k} must be one of ${Object.keys(known).join(', ')}, a positive number`,
      );
  return value as Partial<ServingLimits>;
}

/** What http.createServer / https.createServer take from the limits. */
export function httpServerOptions(limits: ServingLimits): {
  maxHeaderSize: number;
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  return {
    maxHeaderSize: limits.maxHeaderBytes + headerSlackBytes,
    headersTimeout: limits.readHeaderTimeoutMs,
    // kube-apiserver sets no ReadTimeout (Node's default would cut a body read after 300 s).
    requestTimeout: 0,
    // Node checks header deadlines on this beat (30 s by default, which would double the 32 s).
    connectionsCheckingInterval: Math.min(1000, limits.readHeaderTimeoutMs),
  };
}

// What conn.serve writes for a request whose headers are past MaxHeaderBytes (errTooLarge).
const requestHeaderFieldsTooLarge =
  'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large';
// Node's own answer to any other unreadable request (its default clientError handling).
const badRequest = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

/**
 * Applies the limits to a server Node made with httpServerOptions: the keep-alive idle timeout,
 * and Go's answers to a client that breaks them: headers too slow, or a keep-alive connection
 * idle too long, is closed without a word (readRequest's deadline is a network error conn.serve
 * drops); headers too large are Go's 431.
 */
export function applyServingLimits(server: Server, limits: ServingLimits): void {
  server.keepAliveTimeout = limits.idleTimeoutMs;
  // Node checks the header deadline only on a server that has started listening, and these are
  // handed their connections by the shared listener: start the check as its own listening would
  // (close() stops it).
  server.emit('listening');
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && socket.writable && socket.bytesWritten === 0)
      socket.write(err.code === 'HPE_HEADER_OVERFLOW' ? requestHeaderFieldsTooLarge : badRequest);
    socket.destroy();
  });
}

/** The 503 a connection past the cap is answered, as a Status. */
export function tooManyConnectionsMessage(limit: number): string {
  return `the server has too many open connections (limit ${limit}); try again later`;
}
