// Mirrors what sigs.k8s.io/json's UnmarshalStrict reports (internal/golang/encoding/json
// decode.go and kubernetes_patch.go: DisallowUnknownFields, DisallowDuplicateFields) when
// apimachinery's strict JSON serializer decodes a body into a built-in kind (release-1.36): every
// unknown field (`unknown field "spec.foo"`) and every repeated one (`duplicate field "x"`), in
// document order, deduplicated, at most 100, each named by its path (object keys joined by `.`,
// list items as `[i]`, map keys as keys). The Go types are read from the OpenAPI definitions
// (openapi-definitions.ts): a property not in a definition with `properties` is unknown; a map
// (`additionalProperties`) and a free-form object (RawExtension, FieldsV1, a definition without
// properties) accept any key. Deliberate difference: the definitions are Kubernetes 1.27's, so the
// fields added since (definitions-added-since-1-27.ts) are accepted with anything below them.
// patch.go's strict decoding of a patch itself uses the same decoder: a merge or strategic merge
// patch into `map[string]any` (duplicates only), a JSON patch into `[]jsonPatchOp`.
import { builtInDefinitionName, getOpenAPIDefinitions, type Schema } from './openapi-definitions';
import { addedSince127 } from './definitions-added-since-1-27';
import { quote } from '../engine/http-face';

/** A JSON value as the decoder sees it: an object keeps every member, duplicates included. */
type Node =
  { t: 'object'; members: [string, Node][] } | { t: 'array'; items: Node[] } | { t: 'scalar' };

// A recursive descent over JSON text that a JSON parser has already accepted.
function parseNodes(text: string): Node {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const str = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): Node => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const members: [string, Node][] = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { t: 'object', members };
      }
      for (;;) {
        ws();
        const key = str();
        ws();
        i++; // ':'
        members.push([key, value()]);
        ws();
        if (text[i++] === '}') return { t: 'object', members };
      }
    }
    if (c === '[') {
      i++;
      const items: Node[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { t: 'array', items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i++] === ']') return { t: 'array', items };
      }
    }
    if (c === '"') str();
    else while (i < text.length && !',}] \t\n\r'.includes(text[i])) i++;
    return { t: 'scalar' };
  };
  return value();
}

/** The most errors the decoder keeps. */
const maxStrictErrors = 100;

/** A schema with its $ref followed (undefined for a definition this tree lacks). */
function resolve(
  schema: Schema | undefined,
  defs: Readonly<Record<string, Schema>>,
): Schema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/definitions/', '');
  const def = defs[name];
  const added = addedSince127[name];
  if (!def || !added) return def;
  const properties = { ...(def.properties as Record<string, Schema>) };
  for (const [property, s] of Object.entries(added)) properties[property] = s;
  return { ...def, properties };
}

/** A value decoded into `interface{}`: any key, duplicates still reported at any depth. */
const anyValue: Schema = {};

/** jsonPatchOp (patch.go): what a JSON patch is strictly decoded into, `[]jsonPatchOp`. */
const jsonPatchOps: Schema = {
  items: { properties: { op: {}, path: {}, from: {}, value: anyValue } },
};

/**
 * kjson.UnmarshalStrict of the JSON `text` into `schema`: `unknown field "spec.foo"` /
 * `duplicate field "x"` in document order.
 */
function unmarshalStrictErrors(
  text: string,
  schema: Schema,
  defs: Readonly<Record<string, Schema>>,
): string[] {
  const errs: string[] = [];
  const seen = new Set<string>();
  const save = (type: string, path: string): void => {
    const e = `${type} ${quote(path)}`;
    if (errs.length >= maxStrictErrors || seen.has(e)) return;
    seen.add(e);
    errs.push(e);
  };
  const fieldPath = (stack: string, key: string): string =>
    stack === '' ? key : `${stack}.${key}`;
  const walk = (node: Node, schema: Schema | undefined, stack: string): void => {
    const s = schema === anyValue ? anyValue : resolve(schema, defs);
    if (!s) return;
    if (node.t === 'array') {
      const items = s === anyValue ? anyValue : (s.items as Schema | undefined);
      if (items) node.items.forEach((n, i) => walk(n, items, `${stack}[${i}]`));
      return;
    }
    if (node.t !== 'object') return;
    const properties = s.properties as Record<string, Schema> | undefined;
    const additional = s === anyValue ? anyValue : (s.additionalProperties as Schema | boolean);
    const keys = new Set<string>();
    for (const [key, child] of node.members) {
      if (keys.has(key)) save('duplicate field', fieldPath(stack, key));
      keys.add(key);
      if (properties) {
        if (!Object.hasOwn(properties, key)) {
          save('unknown field', fieldPath(stack, key));
          continue;
        }
        walk(child, properties[key], fieldPath(stack, key));
      } else if (additional && typeof additional === 'object')
        walk(child, additional, fieldPath(stack, key));
    }
  };
  walk(parseNodes(text), schema, '');
  return errs;
}

/**
 * The strict decoding errors of the JSON `text` decoded into the built-in kind, as
 * `unknown field "spec.foo"` / `duplicate field "x"`; undefined when the tree has no definition
 * for the kind.
 */
export function strictDecodingErrors(
  text: string,
  gvk: { group: string; version: string; kind: string },
): string[] | undefined {
  const name = builtInDefinitionName(gvk.group, gvk.version, gvk.kind);
  if (!name) return undefined;
  return unmarshalStrictErrors(text, { $ref: `#/definitions/${name}` }, getOpenAPIDefinitions());
}

/** The strict decoding errors of a merge or strategic merge patch (into `map[string]any`). */
export function patchMapStrictErrors(text: string): string[] {
  return unmarshalStrictErrors(text, anyValue, {});
}

/** The strict decoding errors of a JSON patch (into `[]jsonPatchOp`), `json patch …` each. */
export function jsonPatchStrictErrors(text: string): string[] {
  return unmarshalStrictErrors(text, jsonPatchOps, {}).map((e) => `json patch ${e}`);
}

/**
 * The object as the codec's typed round trip leaves it: every field the kind's Go type does not
 * have (what strictDecodingErrors names `unknown field`) is gone, as decoding into the struct drops
 * it whatever fieldValidation says (Warn only adds the warning). Copies what it changes; returns
 * `obj` itself when the tree has no definition for the kind or nothing is unknown.
 */
export function dropUnknownFields<T>(
  obj: T,
  gvk: { group: string; version: string; kind: string },
): T {
  const name = builtInDefinitionName(gvk.group, gvk.version, gvk.kind);
  if (!name) return obj;
  const defs = getOpenAPIDefinitions();
  const prune = (value: unknown, schema: Schema | undefined): unknown => {
    const s = resolve(schema, defs);
    if (!s || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const items = s.items as Schema | undefined;
      if (!items) return value;
      let changed = false;
      const out = value.map((v) => {
        const p = prune(v, items);
        if (p !== v) changed = true;
        return p;
      });
      return changed ? out : value;
    }
    const properties = s.properties as Record<string, Schema> | undefined;
    const additional = s.additionalProperties as Schema | boolean | undefined;
    if (!properties && !(additional && typeof additional === 'object')) return value;
    let out: Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const childSchema = properties
        ? Object.hasOwn(properties, key)
          ? properties[key]
          : undefined
        : (additional as Schema);
      if (properties && childSchema === undefined) {
        out ??= { ...(value as Record<string, unknown>) };
        delete out[key];
        continue;
      }
      const p = prune(child, childSchema);
      if (p !== child) {
        out ??= { ...(value as Record<string, unknown>) };
        // An own property whatever the key (a map's `__proto__` key stays data).
        Object.defineProperty(out, key, {
          value: p,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return out ?? value;
  };
  return prune(obj, { $ref: `#/definitions/${name}` }) as T;
}
