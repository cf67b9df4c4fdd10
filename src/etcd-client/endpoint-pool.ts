// Mirrors clientv3's connection and unary retry policy (client/v3/client.go dialSetupOpts,
// options.go defaultCallOpts, retry_interceptor.go unaryClientInterceptor, retry.go
// isSafeRetryImmutableRPC / isSafeRetryMutableRPC) over one grpc-js channel per endpoint.
// Deliberate difference: clientv3's balancer spreads calls round-robin over every ready endpoint;
// here calls go to one pinned endpoint, and the pool moves to the next one when a call fails with
// Unavailable (a dead or unreachable member), which is when clientv3's balancer would pick another.

import * as grpc from '@grpc/grpc-js';
import type { EtcdMethod } from './etcd-protos';
import { fromGrpcError, isServiceError } from './grpc-errors';
import type { Pb } from './pb-convert';

/** What kube-apiserver's clientv3 sets (storagebackend/factory/etcd3.go, clientv3 options.go). */
export const channelOptions: grpc.ChannelOptions = {
  // defaultMaxCallSendMsgSize: 2 MiB; defaultMaxCallRecvMsgSize: math.MaxInt32.
  'grpc.max_send_message_length': 2 * 1024 * 1024,
  'grpc.max_receive_message_length': 2147483647,
  // keepaliveTime 30 s, keepaliveTimeout 10 s (factory/etcd3.go); PermitWithoutStream false.
  'grpc.keepalive_time_ms': 30000,
  'grpc.keepalive_timeout_ms': 10000,
  'grpc.keepalive_permit_without_calls': 0,
};

/** options.go defaultUnaryMaxRetries. */
export const defaultUnaryMaxRetries = 100;
/** options.go defaultBackoffWaitBetween (ms) and defaultBackoffJitterFraction. */
const backoffWaitBetweenMs = 25;
const backoffJitterFraction = 0.1;

/** An endpoint URL as grpc-js's target: `http://127.0.0.1:2379` -> `127.0.0.1:2379`. */
export function endpointTarget(url: string): string {
  const m = /^(?:(https?|unix):\/\/)?([^/]+)\/?$/.exec(url.trim());
  if (!m || m[1] === 'https' || m[1] === 'unix')
    throw new Error(
      `etcd endpoint ${JSON.stringify(url)}: only http://host:port endpoints are supported (no TLS)`,
    );
  return m[2];
}

/**
 * retry.go isSafeRetryMutableRPC: a write is retried only when it never left the client, i.e. no
 * connection was available ("there is no address available" / "there is no connection
 * available" in grpc-go; grpc-js says "No connection established" for a fail-fast call on a
 * channel that could not connect).
 */
export function neverSent(e: unknown): boolean {
  if (!isServiceError(e) || e.code !== grpc.status.UNAVAILABLE) return false;
  return (
    e.details.startsWith('No connection established') ||
    e.details === 'there is no address available' ||
    e.details === 'there is no connection available'
  );
}

/** retry.go isSafeRetryImmutableRPC: a read is retried on Unavailable (etcd's own or gRPC's). */
export function unavailable(e: unknown): boolean {
  return isServiceError(e) && e.code === grpc.status.UNAVAILABLE;
}

export class EndpointPool {
  readonly endpoints: readonly string[];
  private readonly clients: grpc.Client[];
  private active = 0;
  private closed = false;

  constructor(endpoints: readonly string[]) {
    if (endpoints.length === 0) throw new Error('etcd: no endpoints given');
    this.endpoints = [...endpoints];
    this.clients = endpoints.map(
      (e) => new grpc.Client(endpointTarget(e), grpc.credentials.createInsecure(), channelOptions),
    );
  }

  /** The endpoint calls go to now. */
  get activeEndpoint(): string {
    return this.endpoints[this.active];
  }

  /** The client of the pinned endpoint (for the watch streams). */
  client(): grpc.Client {
    if (this.closed) throw new Error('etcd client is closed');
    return this.clients[this.active];
  }

  /** Moves to the next endpoint after `client` failed (a no-op when another call already moved). */
  failed(client: grpc.Client): void {
    if (this.clients[this.active] === client) this.active = (this.active + 1) % this.clients.length;
  }

  /**
   * grpc.WithBlock + DialTimeout: resolves once some endpoint's channel is connected (it becomes
   * the pinned one), rejects when none is within `timeoutMs`.
   */
  waitForAnyReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      let pending = this.clients.length;
      let done = false;
      this.clients.forEach((c, i) =>
        c.waitForReady(deadline, (err) => {
          if (done) return;
          if (!err) {
            done = true;
            this.active = i;
            resolve();
          } else if (--pending === 0) {
            reject(
              new Error(
                `etcd: no member answered at ${this.endpoints.join(',')} within ${timeoutMs} ms (context deadline exceeded)`,
              ),
            );
          }
        }),
      );
    });
  }

  /**
   * unaryClientInterceptor: the call, retried against the next endpoint while the error is safe to
   * retry (immutable: any Unavailable; mutable: only never sent), with options.go's backoff.
   */
  async unary(method: EtcdMethod, req: Pb, immutable: boolean): Promise<Pb> {
    let lastErr: unknown;
    for (let attempt = 0; attempt < defaultUnaryMaxRetries; attempt++) {
      if (attempt > 0) await sleep(jitter(backoffWaitBetweenMs));
      const client = this.client();
      try {
        return await unaryCall(client, method, req);
      } catch (e) {
        lastErr = e;
        if (this.closed) break;
        const retry = immutable ? unavailable(e) : neverSent(e);
        if (!retry) break;
        this.failed(client);
      }
    }
    throw fromGrpcError(lastErr);
  }

  /** One call to the member at `endpoint` (clientv3 Maintenance calls dial that member), no retry. */
  unaryTo(endpoint: string, method: EtcdMethod, req: Pb): Promise<Pb> {
    const i = this.endpoints.indexOf(endpoint);
    if (i < 0)
      return Promise.reject(new Error(`etcd: ${endpoint} is not one of this client's endpoints`));
    if (this.closed) return Promise.reject(new Error('etcd client is closed'));
    return unaryCall(this.clients[i], method, req).catch((e: unknown) => {
      throw fromGrpcError(e);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.clients) c.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

function unaryCall(client: grpc.Client, method: EtcdMethod, req: Pb): Promise<Pb> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      req,
      (err, value) => (err || !value ? reject(err ?? new Error('empty response')) : resolve(value)),
    );
  });
}

/** waitRetryBackoff's jitterUp: waitBetween × (1 ± jitterFraction). */
function jitter(ms: number): number {
  return ms * (1 + backoffJitterFraction * (Math.random() * 2 - 1));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
