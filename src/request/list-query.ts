// Mirrors k8s.io/apiserver pkg/endpoints/handlers/get.go (listOpts, GetResource's options) and
// k8s.io/apimachinery pkg/apis/meta/v1 + internalversion conversions, internalversion/defaults.go
// and internalversion/validation/validation.go (release-1.36): query parameters -> list, watch
// and get options, failing with upstream's codes and messages in upstream's order:
// 1. ParameterCodec.DecodeParameters (url.Values -> v1.ListOptions -> internal): a bad integer or
//    selector is a 400 carrying the parse error's text;
// 2. SetListOptionsDefaults (WatchList);
// 3. ValidateListOptions: a 422 `ListOptions.meta.k8s.io "" is invalid: …`;
// 4. the field selector's labels converted for the resource: a 400 (`field label not supported: x`);
// 5. a named request (a watch of one object) pins metadata.name.
// The storage-level checks (continue token, resourceVersion syntax) stay in the engine's
// validate-list-options.ts, which every list and watch goes through.
import {
  type ResourceListRequest,
  type ResourceWatchRequest,
  type StatusError,
  fields,
  labels,
} from '../engine';
import {
  newBadRequest,
  newInvalid,
  FieldPath,
  NamedString,
  forbidden,
  notSupported,
  type FieldError,
  convertFieldLabel,
  type FieldLabelConversionFunc,
  parseInt64,
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
} from '../engine/http-face';

/** url.Values: every value of each key, in order. */
export type QueryValues = ReadonlyMap<string, readonly string[]>;

// url.unescape(s, encodeQueryComponent): '+' is a space; a bad %-escape fails the whole pair.
function queryUnescape(s: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c === 0x2b) {
      bytes.push(0x20);
    } else {
      for (const b of new TextEncoder().encode(s[i])) bytes.push(b);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/**
 * url.ParseQuery as req.URL.Query() uses it: pairs split on '&', a pair containing ';' or a bad
 * %-escape is dropped (Query ignores the error), a key without '=' has the value ''.
 */
export function parseQuery(rawQuery: string): QueryValues {
  const values = new Map<string, string[]>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = queryUnescape(eq < 0 ? pair : pair.slice(0, eq));
    const value = queryUnescape(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === undefined || value === undefined) continue;
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  return values;
}

/** metainternalversion.ListOptions with its selectors parsed (and kept as sent). */
export interface InternalListOptions {
  labelSelector: string;
  fieldSelector: string;
  /** The parsed field selector; after listOpts, with its labels converted for the resource. */
  parsedFieldSelector: fields.Selector;
  watch: boolean;
  allowWatchBookmarks: boolean;
  resourceVersion: string;
  resourceVersionMatch: string;
  /** *int64: undefined when absent. */
  timeoutSeconds?: number;
  limit: number;
  continue: string;
  /** *bool: undefined when absent. */
  sendInitialEvents?: boolean;
}

// runtime.Convert_Slice_string_To_bool: only "0" and (any case) "false" are false; "" is true.
function convertBool(v: string): boolean {
  return !(v === '0' || v.toLowerCase() === 'false');
}

// runtime.Convert_Slice_string_To_int64 (strconv.ParseInt(s, 10, 64)); values beyond 2^53 are
// clamped, which no list or timeout can tell apart.
function convertInt64(v: string): number {
  const n = parseInt64(v);
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  if (n > max) return Number.MAX_SAFE_INTEGER;
  if (n < -max) return -Number.MAX_SAFE_INTEGER;
  return Number(n);
}

/**
 * ParameterCodec.DecodeParameters into metainternalversion.ListOptions: the first value of each
 * parameter, converted in v1.ListOptions' field order (timeoutSeconds before limit), then the
 * label selector and the field selector parsed. Throws a 400 with the failing step's error text,
 * e.g. `strconv.ParseInt: parsing "abc": invalid syntax`.
 */
export function decodeListOptions(query: QueryValues): InternalListOptions {
  const first = (k: string): string | undefined => {
    const v = query.get(k);
    return v && v.length > 0 ? v[0] : undefined;
  };
  const opts: InternalListOptions = {
    labelSelector: first('labelSelector') ?? '',
    fieldSelector: first('fieldSelector') ?? '',
    parsedFieldSelector: fields.everything(),
    watch: false,
    allowWatchBookmarks: false,
    resourceVersion: '',
    resourceVersionMatch: '',
    limit: 0,
    continue: '',
  };
  try {
    const watch = first('watch');
    if (watch !== undefined) opts.watch = convertBool(watch);
    const bookmarks = first('allowWatchBookmarks');
    if (bookmarks !== undefined) opts.allowWatchBookmarks = convertBool(bookmarks);
    opts.resourceVersion = first('resourceVersion') ?? '';
    opts.resourceVersionMatch = first('resourceVersionMatch') ?? '';
    const timeout = first('timeoutSeconds');
    if (timeout !== undefined) opts.timeoutSeconds = convertInt64(timeout);
    const limit = first('limit');
    if (limit !== undefined) opts.limit = convertInt64(limit);
    opts.continue = first('continue') ?? '';
    const initial = first('sendInitialEvents');
    if (initial !== undefined) opts.sendInitialEvents = convertBool(initial);
    labels.parse(opts.labelSelector);
    opts.parsedFieldSelector = fields.parseSelector(opts.fieldSelector);
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
  return opts;
}

/** internalversion.SetListOptionsDefaults: a legacy watch (RV ""/"0") becomes a watch-list. */
export function setListOptionsDefaults(
  opts: InternalListOptions,
  isWatchListFeatureEnabled: boolean,
): void {
  if (!isWatchListFeatureEnabled) return;
  if (opts.sendInitialEvents !== undefined || opts.resourceVersionMatch.length !== 0) return;
  const legacy = opts.resourceVersion === '' || opts.resourceVersion === '0';
  if (opts.watch && legacy) {
    opts.sendInitialEvents = true;
    opts.resourceVersionMatch = resourceVersionMatchNotOlderThan;
  }
}

const rvMatchPath = FieldPath.of('resourceVersionMatch');
const sendInitialEventsPath = FieldPath.of('sendInitialEvents');

/** internalversion/validation.ValidateListOptions (validation.go lines 27-78). */
export function validateListOptions(
  opts: InternalListOptions,
  isWatchListFeatureEnabled: boolean,
): FieldError[] {
  if (opts.watch) return validateWatchOptions(opts, isWatchListFeatureEnabled);
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch;
  if (match.length > 0) {
    if (opts.resourceVersion.length === 0)
      errs.push(
        forbidden(
          rvMatchPath,
          'resourceVersionMatch is forbidden unless resourceVersion is provided',
        ),
      );
    if (opts.continue.length > 0)
      errs.push(
        forbidden(rvMatchPath, 'resourceVersionMatch is forbidden when continue is provided'),
      );
    if (match !== resourceVersionMatchExact && match !== resourceVersionMatchNotOlderThan)
      errs.push(
        notSupported(rvMatchPath, new NamedString(match), [
          resourceVersionMatchExact,
          resourceVersionMatchNotOlderThan,
          '',
        ]),
      );
    if (match === resourceVersionMatchExact && opts.resourceVersion === '0')
      errs.push(
        forbidden(rvMatchPath, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
      );
  }
  if (opts.sendInitialEvents !== undefined)
    errs.push(forbidden(sendInitialEventsPath, 'sendInitialEvents is forbidden for list'));
  return errs;
}

function validateWatchOptions(
  opts: InternalListOptions,
  isWatchListFeatureEnabled: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch;
  if (opts.sendInitialEvents !== undefined) {
    if (match !== resourceVersionMatchNotOlderThan)
      errs.push(
        forbidden(
          rvMatchPath,
          `sendInitialEvents requires setting resourceVersionMatch to ${resourceVersionMatchNotOlderThan}`,
        ),
      );
    if (!isWatchListFeatureEnabled)
      errs.push(
        forbidden(
          sendInitialEventsPath,
          'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        ),
      );
  }
  if (match.length > 0) {
    if (opts.sendInitialEvents === undefined)
      errs.push(
        forbidden(
          rvMatchPath,
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        ),
      );
    if (match !== resourceVersionMatchNotOlderThan)
      errs.push(
        notSupported(rvMatchPath, new NamedString(match), [resourceVersionMatchNotOlderThan]),
      );
    if (opts.continue.length > 0)
      errs.push(
        forbidden(rvMatchPath, 'resourceVersionMatch is forbidden when continue is provided'),
      );
  }
  return errs;
}

/** The 422 of a ListOptions validation failure (get.go listOpts: GroupKind meta.k8s.io/ListOptions, name ""). */
export function newListOptionsInvalid(errs: readonly FieldError[]): StatusError {
  return newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
}

/**
 * apiextensions crConverter.ConvertFieldLabel: metadata.name, metadata.namespace when the custom
 * resource is namespaced, and the CRD's selectableFields; `field label not supported: x` otherwise.
 */
export function customResourceFieldLabelConversion(
  clusterScoped: boolean,
  selectableFields: readonly string[] = [],
): FieldLabelConversionFunc {
  return (label, value) => {
    if (label === 'metadata.name') return [label, value];
    if (!clusterScoped && label === 'metadata.namespace') return [label, value];
    if (selectableFields.includes(label)) return [label, value];
    throw new Error(`field label not supported: ${label}`);
  };
}

export interface ListOptsScope {
  /** The resource (`pods`): picks its field label conversion unless `convertFieldLabel` is given. */
  resource: string;
  /** The resource's group ('' or absent for core): `events.k8s.io` events convert their own. */
  group?: string;
  /** scope.Convertor.ConvertFieldLabel for the request's kind (a CR's: customResourceFieldLabelConversion). */
  convertFieldLabel?: FieldLabelConversionFunc;
  /** The object name from the path (a watch of one object), if any. */
  name?: string;
  /** The WatchList feature gate. */
  watchList: boolean;
}

/**
 * get.go listOpts: decode, default, validate, convert the field selector's labels, pin the name.
 * Throws a StatusError (400 or 422) exactly where upstream's handler would answer with one.
 */
export function listOpts(query: QueryValues, scope: ListOptsScope): InternalListOptions {
  const opts = decodeListOptions(query);
  setListOptionsDefaults(opts, scope.watchList);
  const errs = validateListOptions(opts, scope.watchList);
  if (errs.length > 0) throw newListOptionsInvalid(errs);
  const convert =
    scope.convertFieldLabel ??
    ((label: string, value: string) =>
      convertFieldLabel(scope.resource, label, value, scope.group ?? ''));
  try {
    opts.parsedFieldSelector = opts.parsedFieldSelector.transform(convert);
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
  if (scope.name !== undefined) {
    const selector = opts.parsedFieldSelector;
    if (!selector.empty()) {
      if (selector.requiresExactMatch('metadata.name') !== scope.name)
        throw newBadRequest("fieldSelector metadata.name doesn't match requested name");
    } else {
      opts.parsedFieldSelector = fields.oneTermEqualSelector('metadata.name', scope.name);
    }
  }
  return opts;
}

/**
 * The engine's list request for decoded options: the label selector as sent, the field selector
 * with its labels converted (what upstream's storage is given; the engine parses both again).
 */
export function toResourceListRequest(
  opts: InternalListOptions,
  namespace?: string,
): ResourceListRequest {
  const req: ResourceListRequest = {};
  if (namespace) req.namespace = namespace;
  if (opts.resourceVersion) req.resourceVersion = opts.resourceVersion;
  if (opts.resourceVersionMatch) req.resourceVersionMatch = opts.resourceVersionMatch;
  if (opts.labelSelector) req.labelSelector = opts.labelSelector;
  if (opts.fieldSelector) req.fieldSelector = opts.parsedFieldSelector.string();
  if (opts.limit !== 0) req.limit = opts.limit;
  if (opts.continue) req.continue = opts.continue;
  return req;
}

/**
 * The engine's watch request for decoded options. Defaults were applied by listOpts, so the
 * engine must not apply them again (applyDefaults: false); `name` is the path's object name.
 */
export function toResourceWatchRequest(
  opts: InternalListOptions,
  namespace?: string,
  name?: string,
): ResourceWatchRequest {
  const req: ResourceWatchRequest = { applyDefaults: false };
  if (namespace) req.namespace = namespace;
  if (name) req.name = name;
  if (opts.resourceVersion) req.resourceVersion = opts.resourceVersion;
  if (opts.resourceVersionMatch) req.resourceVersionMatch = opts.resourceVersionMatch;
  if (opts.labelSelector) req.labelSelector = opts.labelSelector;
  if (opts.fieldSelector) req.fieldSelector = opts.parsedFieldSelector.string();
  if (opts.allowWatchBookmarks) req.allowWatchBookmarks = true;
  if (opts.sendInitialEvents !== undefined) req.sendInitialEvents = opts.sendInitialEvents;
  if (opts.timeoutSeconds !== undefined) req.timeoutSeconds = opts.timeoutSeconds;
  return req;
}

/** metav1.GetOptions as GetResource decodes it: only resourceVersion. */
export interface GetOptions {
  resourceVersion: string;
}

/**
 * GetResource's options (get.go lines 87-104): `export=true` (any value but 0/false) is a 400
 * `the export parameter, deprecated since v1.14, is no longer supported`; then resourceVersion.
 */
export function getOptions(query: QueryValues): GetOptions {
  const exp = query.get('export');
  if (exp && exp.length > 0 && convertBool(exp[0]))
    throw newBadRequest('the export parameter, deprecated since v1.14, is no longer supported');
  const rv = query.get('resourceVersion');
  return { resourceVersion: rv && rv.length > 0 ? rv[0] : '' };
}
