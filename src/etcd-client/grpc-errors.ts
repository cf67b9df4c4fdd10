// Mirrors etcd api/v3rpc/rpctypes/error.go (errStringToError, Error): turns a grpc-js status into
// the EtcdError clientv3 would return. A status whose desc is one of etcd's own errors becomes that
// error with the bare desc (err.Error() of an rpctypes.EtcdError); any other keeps grpc-go's
// `rpc error: code = X desc = Y`.

import { status as Status, type ServiceError } from '@grpc/grpc-js';
import { EtcdError, GrpcCode, type GrpcCodeName } from '../engine/etcd-face';

/** rpctypes' errStringToError keys (etcd 3.4): the descs clientv3 converts to etcd errors. */
const etcdErrorDescs = new Set([
  'etcdserver: key is not provided',
  'etcdserver: key not found',
  'etcdserver: value is provided',
  'etcdserver: lease is provided',
  'etcdserver: too many operations in txn request',
  'etcdserver: duplicate key given in txn request',
  'etcdserver: mvcc: required revision has been compacted',
  'etcdserver: mvcc: required revision is a future revision',
  'etcdserver: mvcc: database space exceeded',
  'etcdserver: requested lease not found',
  'etcdserver: lease already exists',
  'etcdserver: too large lease TTL',
  'etcdserver: member ID already exist',
  'etcdserver: Peer URLs already exists',
  'etcdserver: re-configuration failed due to not enough started members',
  'etcdserver: given member URLs are invalid',
  'etcdserver: member not found',
  'etcdserver: can only promote a learner member',
  'etcdserver: can only promote a learner member which is in sync with leader',
  'etcdserver: too many learner members in cluster',
  'etcdserver: cluster ID mismatch',
  'etcdserver: request is too large',
  'etcdserver: too many requests',
  'etcdserver: root user does not exist',
  'etcdserver: root user does not have root role',
  'etcdserver: user name already exists',
  'etcdserver: user name is empty',
  'etcdserver: user name not found',
  'etcdserver: role name already exists',
  'etcdserver: role name not found',
  'etcdserver: role name is empty',
  'etcdserver: authentication failed, invalid user ID or password',
  'etcdserver: permission not given',
  'etcdserver: permission denied',
  'etcdserver: role is not granted to the user',
  'etcdserver: permission is not granted to the role',
  'etcdserver: authentication is not enabled',
  'etcdserver: invalid auth token',
  'etcdserver: invalid auth management',
  'etcdserver: revision of auth store is old',
  'etcdserver: no leader',
  'etcdserver: not leader',
  'etcdserver: leader changed',
  'etcdserver: not capable',
  'etcdserver: server stopped',
  'etcdserver: request timed out',
  'etcdserver: request timed out, possibly due to previous leader failure',
  'etcdserver: request timed out, possibly due to connection lost',
  'etcdserver: request timed out, waiting for the applied index took too long',
  'etcdserver: unhealthy cluster',
  'etcdserver: corrupt cluster',
  'etcdserver: rpc not supported for learner',
  'etcdserver: bad leader transferee',
]);

/** rpctypes.ErrNoLeader's desc: a watch stream with `hasleader` is canceled with it. */
export const noLeaderDesc = 'etcdserver: no leader';

const codeNames = new Map<number, GrpcCodeName>(
  (Object.entries(GrpcCode) as [GrpcCodeName, number][]).map(([name, code]) => [code, name]),
);

/** The gRPC code's Go name (codes.Code.String()); Unknown for a code grpc-go does not define. */
export function grpcCodeName(code: number): GrpcCodeName {
  return codeNames.get(code) ?? 'Unknown';
}

/** True for a grpc-js error carrying a status (ServiceError or a stream's StatusObject error). */
export function isServiceError(e: unknown): e is ServiceError {
  return (
    e instanceof Error && typeof (e as Partial<ServiceError>).code === 'number' && 'details' in e
  );
}

/** rpctypes.Error: a gRPC status as clientv3 returns it. */
export function toEtcdError(code: number, details: string): EtcdError {
  return new EtcdError(grpcCodeName(code), details, etcdErrorDescs.has(details));
}

/** Any failure of a grpc-js call as an EtcdError (a non-status error becomes Unknown). */
export function fromGrpcError(e: unknown): EtcdError {
  if (e instanceof EtcdError) return e;
  if (isServiceError(e)) return toEtcdError(e.code, e.details);
  return toEtcdError(Status.UNKNOWN, e instanceof Error ? e.message : String(e));
}
