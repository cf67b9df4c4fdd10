// Loads etcd's gRPC API (api/etcdserverpb/rpc.proto, api/mvccpb/kv.proto, api/authpb/auth.proto of
// etcd 3.4, as the etcd3 npm package ships them) for @grpc/grpc-js. Only the .proto files come from
// etcd3: its client classes are not used, since their connection pool retries calls and re-creates
// watches on its own, which would hide from the engine the compaction cancel and the exact gRPC
// status it must see. The descriptor is compiled into the bundle at build time (esbuild.js).

import * as protoLoader from '@grpc/proto-loader';
import type { MethodDefinition } from '@grpc/proto-loader';
import descriptor from 'etcd-proto-descriptor';

/** proto-loader options: camelCase fields, int64 as numbers (revisions fit in 2^53), bytes as Buffer. */
const loaderOptions: protoLoader.Options = {
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

/** A method of etcd's API: its path and (de)serializers for grpc-js's generic Client calls. */
export type EtcdMethod = MethodDefinition<object, Record<string, unknown>>;

export interface EtcdMethods {
  range: EtcdMethod;
  txn: EtcdMethod;
  deleteRange: EtcdMethod;
  compact: EtcdMethod;
  watch: EtcdMethod;
  /**
   * etcd 3.7's server-streaming KV.RangeStream: not in the 3.4 protos; its messages are
   * RangeRequest and RangeResponse, so it borrows Range's (de)serializers.
   */
  rangeStream: EtcdMethod;
  /** Maintenance.Status: the member's version (the RequestWatchProgress check reads it). */
  status: EtcdMethod;
}

let methods: EtcdMethods | undefined;

/** etcd's KV, Watch and Maintenance.Status methods, loaded once per process. */
export function etcdMethods(): EtcdMethods {
  if (methods) return methods;
  const pkg = protoLoader.fromJSON(descriptor, loaderOptions);
  const kv = pkg['etcdserverpb.KV'] as Record<string, EtcdMethod>;
  const watch = pkg['etcdserverpb.Watch'] as Record<string, EtcdMethod>;
  const maintenance = pkg['etcdserverpb.Maintenance'] as Record<string, EtcdMethod>;
  methods = {
    range: kv.Range,
    txn: kv.Txn,
    deleteRange: kv.DeleteRange,
    compact: kv.Compact,
    watch: watch.Watch,
    status: maintenance.Status,
    rangeStream: {
      ...kv.Range,
      path: '/etcdserverpb.KV/RangeStream',
      responseStream: true,
      originalName: 'rangeStream',
    },
  };
  return methods;
}
