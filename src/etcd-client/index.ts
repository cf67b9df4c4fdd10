// No upstream counterpart: the etcd client's entry point, bundled as its own chunk
// (dist/etcd-client.js, see esbuild.js) that the CLI and the extension load with
// `await import('../etcd-client')` only when a real etcd is wanted.

export { GrpcEtcd, defaultDialTimeoutMs, type GrpcEtcdOptions } from './grpc-etcd';
export {
  spawnEtcd,
  clientAddressFromLogLine,
  etcdNotFoundMessage,
  type SpawnEtcdOptions,
  type SpawnedEtcd,
} from './etcd-process';
export { openEtcd, type OpenEtcdOptions, type OpenedEtcd } from './open-etcd';
