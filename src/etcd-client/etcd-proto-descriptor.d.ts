// No upstream counterpart: the type of the virtual module esbuild.js's etcd-proto-descriptor plugin
// builds from node_modules/etcd3/proto/rpc.proto (a protobufjs JSON descriptor).
declare module 'etcd-proto-descriptor' {
  const descriptor: Record<string, unknown>;
  export default descriptor;
}
