// What the HTTP face knows about one resource it serves: its API names (discovery, Table, Status
// details), the engine resource behind it and the registry Store that writes it. No single
// upstream counterpart: the fields are metav1.APIResource's (apimachinery pkg/apis/meta/v1/types.go)
// plus the registry's storage.
import type { Resource, EtcdMember } from '../engine';
import type { BuiltinAPIResource } from '../request/builtin-api-resources';
import type { CustomResourceSubresources } from './crd';
import type { Store } from './registry/store';

/** One additionalPrinterColumn (apiextensions.k8s.io/v1 CustomResourceColumnDefinition). */
export interface PrinterColumn {
  name: string;
  /** integer, number, string, boolean, date. */
  type: string;
  format?: string;
  description?: string;
  /** 0 is shown by `kubectl get`; higher only with `-o wide`. */
  priority?: number;
  /** A JSONPath into the object (`.spec.replicas`). */
  jsonPath: string;
}

export interface ServedResource {
  /** '' for core. */
  group: string;
  version: string;
  /** Plural, lower case: `pods`. */
  resource: string;
  singularName: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
  verbs: readonly string[];
  /** A CRD's additionalPrinterColumns; undefined for the built-ins (their printers are fixed). */
  printerColumns?: readonly PrinterColumn[];
  /**
   * A CRD's openAPIV3Schema for this version, as the manifest gives it (what /openapi/v2 and
   * /openapi/v3 publish for it); undefined for the built-ins (their schemas are fixed).
   */
  openAPIV3Schema?: Readonly<Record<string, unknown>>;
  /**
   * A custom resource's storage version, on every served version of it: objects read and written
   * through another version are converted (custom-resource-conversion.ts); all share one engine.
   */
  storageVersion?: string;
  /** The storage version's openAPIV3Schema: what prunes an object converted to it. */
  storageSchema?: Readonly<Record<string, unknown>>;
  /** Stored as JSON only (custom resources): no protobuf in discovery or negotiation. */
  jsonOnly: boolean;
  /** A DELETE answers the deleted object (the store's ReturnDeletedObject), else a Success Status. */
  returnDeletedObject?: boolean;
  /** A CRD's subresources (status, scale); undefined for the built-ins (their row lists theirs). */
  crdSubresources?: CustomResourceSubresources;
  /**
   * A custom resource whose CRD is terminating (being deleted): reads, updates and deletes are
   * still served, creates are refused (customresource_handler.go's `terminating`).
   */
  terminating?: boolean;
  /** A built-in's row of the API table (builtin-api-resources.ts); undefined for a custom resource. */
  builtin?: BuiltinAPIResource;
  /** The engine resource: etcd3 store + watch cache + cacher + delegator. */
  engine: Resource<EtcdMember>;
  /** The registry Store (registry/store.ts): every read and write of the resource goes through it. */
  store: Store;
}

/** `apps/v1` or `v1`. */
export function groupVersionOf(r: Pick<ServedResource, 'group' | 'version'>): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}
