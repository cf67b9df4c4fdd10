// Mirrors rest.TableConvertor as kube-apiserver builds it for the served resources (release-1.36):
// for the built-ins, kubernetes/kubernetes pkg/printers/storage TableConvertor over
// pkg/printers/tablegenerator.go GenerateTable (Wide: true); for a custom resource,
// k8s.io/apiextensions-apiserver pkg/registry/customresource/tableconvertor (New, ConvertToTable,
// cellForJSONValue) with the logically defaulted Age column of apiserver/columns.go
// (serveDefaultColumnsIfEmpty) and apimachinery pkg/api/meta/table MetaToTableRow; a built-in without
// a printer (table-handlers.ts; none upstream either) gets k8s.io/apiserver pkg/registry/rest/table.go's
// default convertor.
import type { KubeList, KubeObject } from '../engine';
import type { ListMeta } from '../engine/http-face';
import { humanDuration } from './duration';
import { JsonPath, printResults, type JsonValue } from './jsonpath';
import type { TableOptions } from './negotiation';
import { isList, listMetaOf } from './partial-object-metadata';
import {
  nameColumnDefinition,
  objectMetaCreationTimestampDescription,
  parseTime,
  type TableColumnDefinition,
  type TableRow,
} from './printers';
import type { PrinterColumn, ServedResource } from './served-resource';
import { builtInTableHandlers, scaleTableHandler, type TableHandler } from './table-handlers';

/** metav1.Table before its TypeMeta is set (asTable sets it for the requested version). */
export interface TableContent {
  metadata: ListMeta;
  /** Go's nil slice (written as null) when headers are omitted. */
  columnDefinitions: readonly TableColumnDefinition[] | null;
  rows: TableRow[];
}

/** rest.TableConvertor. */
export interface TableConvertor {
  /** `now` (epoch ms) is time.Now for the AGE cells. */
  convertToTable(object: KubeObject | KubeList, options: TableOptions, now: number): TableContent;
}

/** The ListMeta a table carries: the list's, or the single object's resourceVersion. */
function tableListMeta(object: KubeObject | KubeList): ListMeta {
  if (isList(object)) return listMetaOf(object.metadata);
  const rv = object.metadata?.resourceVersion;
  return rv ? { resourceVersion: rv } : {};
}

function itemsOf(object: KubeObject | KubeList): KubeObject[] {
  return isList(object) ? object.items : [object];
}

/** An autoscaling/v1 Scale (what the `/scale` subresource answers). */
function isAutoscalingScale(object: KubeObject | KubeList): boolean {
  return object.kind === 'Scale' && object.apiVersion === 'autoscaling/v1';
}

/** GenerateTable with a built-in's printer. */
function printerTableConvertor(group: string, resource: string, goType: string): TableConvertor {
  const resourceHandler = builtInTableHandlers.get(`${group}/${resource}`);
  // A built-in without a printer answers as a Store without a TableConvertor does.
  if (resourceHandler === undefined) return defaultTableConvertor;
  return {
    convertToTable(object, options, now) {
      // GenerateTable picks the handler by the object's type: a `/scale` GET answers a Scale.
      const handler: TableHandler | undefined = isAutoscalingScale(object)
        ? scaleTableHandler
        : resourceHandler;
      if (handler === undefined)
        throw new Error(`no table handler registered for this type ${goType}`);
      const rows: TableRow[] = [];
      for (const item of itemsOf(object))
        rows.push(...handler.print(item as unknown as Record<string, unknown>, now));
      return {
        metadata: tableListMeta(object),
        columnDefinitions: options.noHeaders ? null : handler.columnDefinitions,
        rows,
      };
    },
  };
}

/** The Created At column (rest's defaultTableConvertor). */
const createdAtColumnDefinition: TableColumnDefinition = {
  name: 'Created At',
  type: 'date',
  format: '',
  description: objectMetaCreationTimestampDescription,
  priority: 0,
};

/** Go's zero time.Time formatted as RFC 3339. */
const zeroTimeRFC3339 = '0001-01-01T00:00:00Z';

/**
 * k8s.io/apiserver pkg/registry/rest/table.go NewDefaultTableConvertor: Name and Created At, the
 * creation time in RFC 3339 in UTC (Go's zero time when unset).
 */
export const defaultTableConvertor: TableConvertor = {
  convertToTable(object, options) {
    const rows: TableRow[] = itemsOf(object).map((item) => {
      const ts: unknown = item.metadata?.creationTimestamp;
      const created = typeof ts === 'string' ? parseTime(ts) : null;
      return {
        cells: [
          item.metadata?.name ?? '',
          typeof created === 'number'
            ? new Date(created).toISOString().replace(/\.\d{3}Z$/, 'Z')
            : zeroTimeRFC3339,
        ],
        object: item,
      };
    });
    return {
      metadata: tableListMeta(object),
      columnDefinitions: options.noHeaders
        ? null
        : [nameColumnDefinition, createdAtColumnDefinition],
      rows,
    };
  },
};

/** serveDefaultColumnsIfEmpty: a CRD version without columns gets Age. */
export function serveDefaultColumnsIfEmpty(
  columns: readonly PrinterColumn[] | undefined,
): readonly PrinterColumn[] {
  if (columns !== undefined && columns.length > 0) return columns;
  return [
    {
      name: 'Age',
      type: 'date',
      description: objectMetaCreationTimestampDescription,
      jsonPath: '.metadata.creationTimestamp',
    },
  ];
}

/**
 * tableconvertor.New: Name, then one column per printer column. A JSONPath that does not parse
 * ends the columns there (upstream returns the convertor so far with the error; the handler logs
 * it and serves that convertor).
 */
export function newCustomResourceTableConvertor(
  printerColumns: readonly PrinterColumn[] | undefined,
): { convertor: TableConvertor; error?: string } {
  const headers: TableColumnDefinition[] = [nameColumnDefinition];
  const paths: JsonPath[] = [];
  let error: string | undefined;
  for (const col of serveDefaultColumnsIfEmpty(printerColumns)) {
    try {
      paths.push(JsonPath.parse(`{${col.jsonPath}}`));
    } catch {
      error = `unrecognized column definition ${JSON.stringify(col.jsonPath)}`;
      break;
    }
    headers.push({
      name: col.name,
      type: col.type,
      format: col.format ?? '',
      description:
        col.description !== undefined && col.description.length > 0
          ? col.description
          : `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
      priority: col.priority ?? 0,
    });
  }
  const convertor: TableConvertor = {
    convertToTable(object, options, now) {
      const rows: TableRow[] = itemsOf(object).map((item) => {
        const cells: unknown[] = [item.metadata?.name ?? ''];
        paths.forEach((path, i) => {
          const type = headers[i + 1].type;
          let results: JsonValue[];
          try {
            results = path.findResults(item as unknown as JsonValue);
          } catch {
            results = [];
          }
          if (results.length === 0) cells.push(null);
          // Simple paths only: the first result is the value.
          else if (type === 'string') cells.push(printResults([results[0]]));
          else cells.push(cellForJSONValue(type, results[0], now));
        });
        return { cells, object: item };
      });
      return {
        metadata: tableListMeta(object),
        columnDefinitions: options.noHeaders ? null : headers,
        rows,
      };
    },
  };
  return error === undefined ? { convertor } : { convertor, error };
}

/** cellForJSONValue: the cell of a typed column (a value of another type is null). */
export function cellForJSONValue(headerType: string, value: JsonValue, now: number): unknown {
  if (value === null) return null;
  switch (headerType) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = parseTime(value);
      if (t === undefined) return '<invalid>';
      // ConvertToHumanReadableDateType.
      return t === null ? '<unknown>' : humanDuration(now - t);
    }
    default:
      return null;
  }
}

/** The TableConvertor of a served resource. */
export function tableConvertorFor(
  served: Pick<ServedResource, 'group' | 'resource' | 'kind' | 'jsonOnly' | 'printerColumns'>,
): TableConvertor {
  if (served.jsonOnly) return newCustomResourceTableConvertor(served.printerColumns).convertor;
  return printerTableConvertor(served.group, served.resource, `*core.${served.kind}`);
}
