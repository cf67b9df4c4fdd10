// Mirrors k8s.io/apiserver pkg/endpoints/handlers/negotiation/negotiate.go (NegotiateOutputMediaType,
// NegotiateOutputMediaTypeStream, NegotiateMediaTypeOptions, acceptMediaTypeOptions, isPrettyPrint),
// negotiation/errors.go (errNotAcceptable), handlers/rest.go (RequestScope.AllowsMediaTypeTransform,
// AllowsServerVersion, AllowsStreamSchema), handlers/response.go (optionsForTransform,
// targetEncodingForTransform) and github.com/munnerz/goautoneg ParseAccept (release-1.36).
// Deliberate difference: only JSON is served. kube-apiserver also serves application/yaml and
// application/vnd.kubernetes.protobuf; this server has no YAML writer and no generated protobuf
// types, so an Accept naming only those gets the 406 a client would get for an unknown type. The
// 406 message still lists upstream's media types, so it reads byte for byte as kube-apiserver's.
// An error asked for only as YAML or protobuf is written as indented JSON (WriteRawJSON's form).
import { StatusError, type Status } from '../engine';
import { newBadRequest, FieldPath, invalid } from '../engine/http-face';
import { newNotAcceptableError } from './status';

/** What a request's response is: one object, a list, or a watch stream. */
export type TargetKind = 'object' | 'list' | 'watch';

/** metav1.IncludeObjectPolicy. */
export type IncludeObjectPolicy = '' | 'None' | 'Metadata' | 'Object';

/** metav1.TableOptions as optionsForTransform decodes it (NoHeaders is never on the wire). */
export interface TableOptions {
  includeObject: IncludeObjectPolicy;
  noHeaders: boolean;
}

/** The meta.k8s.io kinds a client may ask the server to convert to (`as=`). */
export type ConvertKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** schema.GroupVersionKind of `as=…;g=…;v=…` once accepted: always meta.k8s.io v1 or v1beta1. */
export interface ConvertTarget {
  group: 'meta.k8s.io';
  version: 'v1' | 'v1beta1';
  kind: ConvertKind;
}

/** What the handlers need to write a response: negotiation.MediaTypeOptions reduced to what is served. */
export interface NegotiatedEncoding {
  /** The Content-Type header: `application/json` (watches too: JSON streams carry no `;stream=watch`). */
  contentType: 'application/json';
  /** The conversion asked for, or undefined for the object as stored. */
  convert: ConvertTarget | undefined;
  /** Set when convert is a Table (optionsForTransform). */
  tableOptions: TableOptions | undefined;
  /** `pretty=1` in Accept, `?pretty=true`, or a curl/Wget/browser User-Agent: indented JSON. */
  pretty: boolean;
}

/** What negotiateEncoding looks at in a request. */
export interface NegotiationRequest {
  /** The Accept header (absent = the first served type). */
  accept?: string;
  userAgent?: string;
  /** The query string's parameters (`pretty`, `includeObject`). */
  query?: URLSearchParams;
}

/** runtime.SerializerInfo, what negotiation matches a clause against. */
interface SerializerInfo {
  mediaType: string;
  mediaTypeType: string;
  mediaTypeSubType: string;
  /** Has a StreamSerializer (can frame a watch). */
  streaming: boolean;
}

const jsonInfo: SerializerInfo = {
  mediaType: 'application/json',
  mediaTypeType: 'application',
  mediaTypeSubType: 'json',
  streaming: true,
};

/** What this server encodes: JSON only (see the header). */
const servedSerializers: readonly SerializerInfo[] = [jsonInfo];

/**
 * MediaTypesForSerializer of kube-apiserver's codecs (json, yaml, protobuf; CBOR is alpha and off),
 * the same for a custom resource's unstructured serializer: what the 406 messages list.
 */
export const acceptedMediaTypes: readonly string[] = [
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
];

/** The stream media types of the same codecs (YAML has no stream serializer). */
export const acceptedStreamMediaTypes: readonly string[] = [
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
];

/** metav1 SchemeGroupVersion's version: what `sv=` must name (RequestScope.MetaGroupVersion). */
const metaGroupVersion = 'v1';

/** goautoneg.Accept: one clause of an Accept header. */
export interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

/** strings.Trim(s, " "). */
function trimSpaces(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s[a] === ' ') a++;
  while (b > a && s[b - 1] === ' ') b--;
  return s.slice(a, b);
}

const goFloat = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|infinity)$/i;

/** strconv.ParseFloat(s, 32), the value only (an error gives 0, as goautoneg ignores it). */
function parseFloat32(s: string): number {
  if (!goFloat.test(s)) return /^[+-]?nan$/i.test(s) ? NaN : 0;
  const lower = s.toLowerCase().replace(/^\+/, '');
  const v = lower.endsWith('inf') || lower.endsWith('infinity') ? Infinity : Number(s);
  const signed = s.startsWith('-') ? -Math.abs(v) : v;
  // Out of float32 range is an error (ErrRange) whose value is ±Inf; goautoneg keeps the value.
  return Math.fround(signed);
}

/** goautoneg's accept_slice.Less. */
function acceptLess(ai: AcceptClause, aj: AcceptClause): boolean {
  if (ai.q > aj.q) return true;
  if (ai.type !== '*' && aj.type === '*') return true;
  if (ai.subType !== '*' && aj.subType === '*') return true;
  return false;
}

/** goautoneg.ParseAccept: the clauses, sorted by q then specificity (sort.Sort's insertion sort). */
export function parseAccept(header: string): AcceptClause[] {
  const accept: AcceptClause[] = [];
  for (const rawPart of header.split(',')) {
    const part = trimSpaces(rawPart);
    const mrp = part.split(';');
    const sp = mrp[0].split('/');
    const a: AcceptClause = { type: trimSpaces(sp[0]), subType: '', q: 1, params: new Map() };
    if (sp.length === 1 && a.type === '*') a.subType = '*';
    else if (sp.length === 2) a.subType = trimSpaces(sp[1]);
    else continue;
    for (const param of mrp.slice(1)) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = trimSpaces(param.slice(0, eq));
      const value = param.slice(eq + 1);
      if (token === 'q') a.q = parseFloat32(value);
      else a.params.set(token, trimSpaces(value));
    }
    accept.push(a);
  }
  // sort.Sort on a handful of clauses is an insertion sort (pdqsort below 12 elements).
  for (let j = 1; j < accept.length; j++) {
    for (let k = j; k > 0 && acceptLess(accept[k], accept[k - 1]); k--) {
      const t = accept[k];
      accept[k] = accept[k - 1];
      accept[k - 1] = t;
    }
  }
  return accept;
}

/** What the endpoint allows (negotiation.EndpointRestrictions as RequestScope implements it). */
interface EndpointRestrictions {
  /** A RequestScope's restrictions; false: DefaultEndpointRestrictions (no conversion, no `sv`). */
  scope: boolean;
  /** The resource has a TableConvertor (every served resource does). */
  tableConvertor: boolean;
}

/** negotiation.DefaultEndpointRestrictions: what an error (ErrorNegotiated) negotiates with. */
const defaultEndpointRestrictions: EndpointRestrictions = { scope: false, tableConvertor: false };

interface MediaTypeOptions {
  pretty: boolean;
  stream: string;
  convert: { group: string; version: string; kind: string } | undefined;
  accepted: SerializerInfo;
}

/** RequestScope.AllowsMediaTypeTransform. */
function allowsMediaTypeTransform(
  mimeType: string,
  mimeSubType: string,
  gvk: MediaTypeOptions['convert'],
  endpoint: EndpointRestrictions,
): boolean {
  if (gvk === undefined) return true;
  if (!endpoint.scope) return false;
  if (gvk.group === 'meta.k8s.io' && (gvk.version === 'v1' || gvk.version === 'v1beta1')) {
    switch (gvk.kind) {
      case 'Table':
        return (
          endpoint.tableConvertor &&
          mimeType === 'application' &&
          (mimeSubType === 'json' || mimeSubType === 'yaml')
        );
      case 'PartialObjectMetadata':
      case 'PartialObjectMetadataList':
        return true;
      default:
        return false;
    }
  }
  return false;
}

/** acceptMediaTypeOptions: the clause's parameters, or undefined when they rule this type out. */
function acceptMediaTypeOptions(
  params: Map<string, string>,
  accepts: SerializerInfo,
  endpoint: EndpointRestrictions,
): MediaTypeOptions | undefined {
  const options: MediaTypeOptions = {
    pretty: false,
    stream: '',
    convert: undefined,
    accepted: accepts,
  };
  for (const [k, v] of params) {
    switch (k) {
      case 'as':
        (options.convert ??= { group: '', version: '', kind: '' }).kind = v;
        break;
      case 'g':
        (options.convert ??= { group: '', version: '', kind: '' }).group = v;
        break;
      case 'v':
        (options.convert ??= { group: '', version: '', kind: '' }).version = v;
        break;
      case 'stream':
        // AllowsStreamSchema: only "watch".
        if (v.length > 0 && (!accepts.streaming || v !== 'watch')) return undefined;
        options.stream = v;
        break;
      case 'sv':
        if (v.length > 0 && (!endpoint.scope || v !== metaGroupVersion)) return undefined;
        break;
      case 'pretty':
        options.pretty = v === '1';
        break;
      default:
        // export, profile and unrecognized keys change nothing this server writes.
        break;
    }
  }
  if (
    !allowsMediaTypeTransform(
      accepts.mediaTypeType,
      accepts.mediaTypeSubType,
      options.convert,
      endpoint,
    )
  )
    return undefined;
  return options;
}

/** NegotiateMediaTypeOptions: the first clause (in preference order) a served type satisfies. */
function negotiateMediaTypeOptions(
  header: string,
  accepted: readonly SerializerInfo[],
  endpoint: EndpointRestrictions,
): MediaTypeOptions | undefined {
  if (header.length === 0 && accepted.length > 0) {
    return { pretty: false, stream: '', convert: undefined, accepted: accepted[0] };
  }
  for (const clause of parseAccept(header)) {
    for (const accepts of accepted) {
      if (
        (clause.type === accepts.mediaTypeType && clause.subType === accepts.mediaTypeSubType) ||
        (clause.type === accepts.mediaTypeType && clause.subType === '*') ||
        (clause.type === '*' && clause.subType === '*')
      ) {
        const options = acceptMediaTypeOptions(clause.params, accepts, endpoint);
        if (options !== undefined) return options;
      }
    }
  }
  return undefined;
}

/** isPrettyPrint: `?pretty=<true>` (strconv.ParseBool), else a curl, Wget or browser User-Agent. */
function isPrettyPrint(req: NegotiationRequest): boolean {
  const pp = req.query?.get('pretty');
  if (pp !== undefined && pp !== null && pp.length > 0) {
    return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(pp);
  }
  const ua = req.userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

const includeObjectPolicies: readonly string[] = ['', 'None', 'Metadata', 'Object'];

/**
 * optionsForTransform for a Table: TableOptions from the query (`includeObject`, its first value)
 * and ValidateTableOptions' 400.
 */
function tableOptionsOf(query: URLSearchParams | undefined): TableOptions {
  const includeObject = query?.get('includeObject') ?? '';
  if (!includeObjectPolicies.includes(includeObject)) {
    const err = invalid(
      FieldPath.of('includeObject'),
      includeObject,
      "must be 'Metadata', 'Object', 'None', or empty",
    );
    throw newBadRequest(`Unable to convert to Table as requested: ${err.message}`);
  }
  return { includeObject: includeObject as IncludeObjectPolicy, noHeaders: false };
}

/** The outcome of negotiateEncoding: the encoding, or the Status to answer with. */
export type NegotiationResult =
  { ok: true; encoding: NegotiatedEncoding } | { ok: false; status: Status };

/**
 * The per-request negotiation of ListResource / GetResource and serveWatchHandler, in upstream's
 * order: NegotiateOutputMediaType (406), optionsForTransform (400 for a bad includeObject), and for
 * a watch NegotiateOutputMediaTypeStream (406 naming the stream types). Whether the conversion
 * fits the target (PartialObjectMetadata of a list…) is decided when the object is transformed,
 * after the read, as upstream does (transformObject).
 */
export function negotiateEncoding(req: NegotiationRequest, target: TargetKind): NegotiationResult {
  const endpoint: EndpointRestrictions = { scope: true, tableConvertor: true };
  const options = negotiateMediaTypeOptions(req.accept ?? '', servedSerializers, endpoint);
  if (options === undefined)
    return { ok: false, status: newNotAcceptableError(acceptedMediaTypes).status };
  const convert = options.convert as ConvertTarget | undefined;
  let tableOptions: TableOptions | undefined;
  if (convert?.kind === 'Table') {
    try {
      tableOptions = tableOptionsOf(req.query);
    } catch (e) {
      return { ok: false, status: (e as StatusError).status };
    }
  }
  // The stream serializer of the negotiated type: JSON has one, so only an unserved type fails here.
  if (target === 'watch' && !options.accepted.streaming)
    return { ok: false, status: newNotAcceptableError(acceptedStreamMediaTypes).status };
  return {
    ok: true,
    encoding: {
      contentType: 'application/json',
      convert,
      tableOptions,
      pretty: options.pretty || isPrettyPrint(req),
    },
  };
}

/**
 * How ErrorNegotiated writes a Status: WriteObjectNegotiated's negotiation with
 * DefaultEndpointRestrictions picks the pretty serializer for `pretty=1` in Accept, `?pretty=true`
 * or a curl/Wget/browser User-Agent; when no served type is acceptable, WriteRawJSON writes it
 * (json.MarshalIndent, indented too). Only an acceptable type without pretty gets compact JSON.
 */
export function errorIsIndented(req: NegotiationRequest): boolean {
  const options = negotiateMediaTypeOptions(
    req.accept ?? '',
    servedSerializers,
    defaultEndpointRestrictions,
  );
  return options === undefined || options.pretty || isPrettyPrint(req);
}
