// No upstream counterpart: what `listwatch serve --etcd spawn|URL,…` (and the extension's server
// start) asks for: a connected GrpcEtcd, over an etcd it spawns or an existing cluster, and one
// close() that ends both.

import type { Clock } from '../engine/etcd-face';
import { spawnEtcd, type SpawnedEtcd } from './etcd-process';
import { GrpcEtcd } from './grpc-etcd';
import { endpointTarget } from './endpoint-pool';

export interface OpenedEtcd {
  etcd: GrpcEtcd;
  /** The client URLs in use (a spawned member's, or the ones given). */
  clientURLs: string[];
  /** The member this started (`spawn`), stopped by close(). */
  spawned?: SpawnedEtcd;
  /** Closes the client and stops a spawned member (removing its data directory). */
  close(): Promise<void>;
}

export interface OpenEtcdOptions {
  clock?: Clock;
  dialTimeoutMs?: number;
  /** A spawned etcd's log lines. */
  log?: (line: string) => void;
  /** The etcd binary for `spawn`. */
  binary?: string;
}

/** `--etcd spawn` or `--etcd http://127.0.0.1:2379[,…]`. Throws a clear Error for a bad value. */
export async function openEtcd(spec: string, o: OpenEtcdOptions = {}): Promise<OpenedEtcd> {
  if (spec === 'spawn') {
    const spawned = await spawnEtcd({ binary: o.binary, log: o.log });
    let etcd: GrpcEtcd;
    try {
      etcd = await GrpcEtcd.connect({
        endpoints: spawned.clientURLs,
        clock: o.clock,
        dialTimeoutMs: o.dialTimeoutMs,
      });
    } catch (e) {
      await spawned.stop();
      throw e;
    }
    return {
      etcd,
      clientURLs: spawned.clientURLs,
      spawned,
      close: async () => {
        etcd.close();
        await spawned.stop();
      },
    };
  }
  const endpoints = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (endpoints.length === 0)
    throw new Error(
      `--etcd: expected "spawn" or client URLs (http://host:port,…), got ${JSON.stringify(spec)}`,
    );
  for (const e of endpoints) endpointTarget(e);
  const etcd = await GrpcEtcd.connect({
    endpoints,
    clock: o.clock,
    dialTimeoutMs: o.dialTimeoutMs,
  });
  return {
    etcd,
    clientURLs: endpoints,
    close: async () => etcd.close(),
  };
}
