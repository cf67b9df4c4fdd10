// Mirrors k8s.io/apiserver pkg/endpoints/handlers/response.go doTransformObject and asTable
// (release-1.36): a read's result (object or list) as the negotiated encoding asks for it, the
// object as stored, a Table, or PartialObjectMetadata(List). Throws the StatusError upstream
// answers with (406 for a kind that does not fit, 400 for an unknown includeObject).
import type { KubeList, KubeObject } from '../engine';
import { newBadRequest, type ListMeta, hasInitialEventsEndAnnotation } from '../engine/http-face';
import type { NegotiatedEncoding, TableOptions } from './negotiation';
import {
  asPartialObjectMetadata,
  asPartialObjectMetadataList,
  toPartialObjectMetadata,
  type MetaVersion,
} from './partial-object-metadata';
import type { TableColumnDefinition, TableRowCondition } from './printers';
import { tableConvertorFor } from './table-convertor';
import { groupVersionOf, type ServedResource } from './served-resource';

/** metav1.TableRow as written: `object` is null for includeObject=None. */
export interface TableRowOut {
  cells: unknown[];
  conditions?: TableRowCondition[];
  object: unknown;
}

/** metav1.Table in JSON field order. */
export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  columnDefinitions: readonly TableColumnDefinition[] | null;
  rows: TableRowOut[];
}

type Served = Pick<
  ServedResource,
  'group' | 'version' | 'resource' | 'kind' | 'jsonOnly' | 'printerColumns'
>;

/**
 * The object as the versioning encoder (or ConvertToVersion) writes it for the served version:
 * with kind and apiVersion. An unstructured object marshals its keys sorted (apiVersion first), a
 * typed one kind first.
 */
export function withTypeMeta(
  object: KubeObject,
  served: Pick<ServedResource, 'group' | 'version' | 'kind' | 'jsonOnly'>,
): KubeObject {
  if (object.kind !== undefined && object.apiVersion !== undefined) return object;
  const apiVersion = groupVersionOf(served);
  const rest: Record<string, unknown> = { ...object };
  delete rest.kind;
  delete rest.apiVersion;
  return (
    served.jsonOnly
      ? { apiVersion, kind: served.kind, ...rest }
      : { kind: served.kind, apiVersion, ...rest }
  ) as KubeObject;
}

/**
 * asTable: ConvertToTable, then each row's object per includeObject; an Object is converted to
 * the request's version (scope.Convertor.ConvertToVersion), which sets its kind and apiVersion.
 */
export function asTable(
  result: KubeObject | KubeList,
  options: TableOptions,
  served: Served,
  version: MetaVersion,
  now: number,
): Table {
  const content = tableConvertorFor(served).convertToTable(result, options, now);
  const rows: TableRowOut[] = content.rows.map((row) => {
    const object = row.object as KubeObject;
    let out: unknown;
    if (options.includeObject === 'Object') out = withTypeMeta(object, served);
    else if (
      options.includeObject === 'Metadata' ||
      options.includeObject === '' ||
      hasInitialEventsEndAnnotation(object)
    )
      out = toPartialObjectMetadata(object, version);
    else if (options.includeObject === 'None') out = null;
    else throw newBadRequest(`unrecognized includeObject value: "${options.includeObject}"`);
    return row.conditions === undefined
      ? { cells: row.cells, object: out }
      : { cells: row.cells, conditions: row.conditions, object: out };
  });
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: content.metadata,
    columnDefinitions: content.columnDefinitions,
    rows,
  };
}

/** A Status passes every transformation unchanged (an ERROR event's object, an error body). */
function isStatus(o: KubeObject | KubeList): boolean {
  return o.kind === 'Status' && o.apiVersion === 'v1';
}

/**
 * doTransformObject: the object to encode for `encoding`. `now` (epoch ms) dates the AGE cells;
 * `noHeaders` omits a Table's columnDefinitions (every watch event after the first).
 */
export function transformObject(
  result: KubeObject | KubeList,
  encoding: Pick<NegotiatedEncoding, 'convert' | 'tableOptions'>,
  served: Served,
  now: number,
  noHeaders = false,
): unknown {
  if (isStatus(result)) return result;
  const target = encoding.convert;
  if (target === undefined) return result;
  switch (target.kind) {
    case 'PartialObjectMetadata':
      return asPartialObjectMetadata(result, target.version, served);
    case 'PartialObjectMetadataList':
      return asPartialObjectMetadataList(result, target.version, served);
    case 'Table': {
      const options = encoding.tableOptions ?? { includeObject: '', noHeaders: false };
      return asTable(result, { ...options, noHeaders }, served, target.version, now);
    }
  }
}
