// Mirrors the status lines of the main strategies of kubernetes pkg/registry/*/strategy.go
// (release-1.36: deployment, replicaset, statefulset, daemonset, job, cronjob, service, pvc, pv,
// replicationcontroller, resourcequota, horizontalpodautoscaler, poddisruptionbudget, ingress,
// node) and apiextensions-apiserver's customresource strategy with a status subresource: the main
// resource of a kind with `/status` takes status from the stored object on update
// (`newX.Status = oldX.Status`) and drops the client's on create (`x.Status = XStatus{}`: the
// kind's zero status as Go marshals it; a custom resource's status key deleted), except nodes ("Nodes allow *all* fields, including status, to be set on create"); its reset fields are
// status. Deliberate difference: a PersistentVolume's create leaves status empty (upstream also
// sets phase Pending and lastPhaseTransitionTime).
import type { KubeObject } from '../../engine';
import type { ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

/** What a create does with the client's status: keep it (nodes), or reset it to `zero`. */
export type StatusOnCreate = { keep: true } | { zero: unknown };

/** `main` with the status rules of a kind served with `/status`, as `apiVersion`. */
export function withStatusKept(
  main: ObjectStrategy,
  apiVersion: string,
  onCreate: StatusOnCreate,
): ObjectStrategy {
  return {
    ...main,
    prepareForCreate(obj: KubeObject) {
      if ('zero' in onCreate) {
        if (onCreate.zero === undefined) delete (obj as unknown as Loose).status;
        else (obj as unknown as Loose).status = structuredClone(onCreate.zero);
      }
      main.prepareForCreate(obj);
    },
    prepareForUpdate(obj: KubeObject, old: KubeObject) {
      const status = (old as unknown as Loose).status;
      if (status === undefined) delete (obj as unknown as Loose).status;
      else (obj as unknown as Loose).status = structuredClone(status);
      main.prepareForUpdate(obj, old);
    },
    resetFields: () => ({ ...main.resetFields(), [apiVersion]: [['status']] }),
  };
}
