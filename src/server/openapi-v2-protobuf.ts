// Encodes an OpenAPI v2 JSON document as the protobuf kube-openapi serves for
// `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf` (gnostic's
// openapiv2/OpenAPIv2.proto `Document`, the form kubectl ≤ 1.28 reads for validation and
// `explain`). No upstream counterpart as code: upstream converts with gnostic's generated
// messages. Only the fields the documents of openapi.ts use are written; vendor extensions,
// defaults and enum values are `Any.yaml` strings (JSON text, which is YAML).

type Json = unknown;
type JsonObject = Record<string, Json>;

/** A protobuf message under construction: fields appended in number order by the caller. */
class Message {
  private readonly chunks: Uint8Array[] = [];

  private varint(n: number): void {
    const bytes: number[] = [];
    let v = n;
    while (v > 0x7f) {
      bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    this.chunks.push(Uint8Array.from(bytes));
  }

  private tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2);
    this.varint(data.length);
    this.chunks.push(data);
    return this;
  }

  string(field: number, s: string | undefined): this {
    if (s === undefined || s === '') return this;
    return this.bytes(field, new TextEncoder().encode(s));
  }

  strings(field: number, list: readonly string[] | undefined): this {
    for (const s of list ?? []) this.bytes(field, new TextEncoder().encode(s));
    return this;
  }

  bool(field: number, b: boolean | undefined): this {
    if (!b) return this;
    this.tag(field, 0);
    this.varint(1);
    return this;
  }

  message(field: number, m: Message | undefined): this {
    return m ? this.bytes(field, m.finish()) : this;
  }

  messages(field: number, list: readonly Message[]): this {
    for (const m of list) this.message(field, m);
    return this;
  }

  finish(): Uint8Array {
    const total = this.chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

/** Any{yaml}. */
function any(value: Json): Message {
  return new Message().string(2, JSON.stringify(value));
}

/** NamedAny for every `x-` key (the vendor_extension fields). */
function vendorExtensions(o: JsonObject): Message[] {
  return Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([k, v]) => new Message().string(1, k).message(2, any(v)));
}

function schema(s: JsonObject): Message {
  const m = new Message()
    .string(1, s.$ref as string | undefined)
    .string(2, s.format as string | undefined)
    .string(3, s.title as string | undefined)
    .string(4, s.description as string | undefined);
  if (s.default !== undefined) m.message(5, any(s.default));
  m.strings(19, s.required as string[] | undefined);
  m.messages(20, ((s.enum as Json[] | undefined) ?? []).map(any));
  if (s.additionalProperties !== undefined) {
    const ap = s.additionalProperties;
    m.message(
      21,
      typeof ap === 'boolean'
        ? new Message().bool(2, ap)
        : new Message().message(1, schema(ap as JsonObject)),
    );
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    m.message(22, new Message().strings(1, types));
  }
  if (s.items !== undefined) {
    const items = Array.isArray(s.items) ? (s.items as JsonObject[]) : [s.items as JsonObject];
    m.message(23, new Message().messages(1, items.map(schema)));
  }
  m.messages(24, ((s.allOf as JsonObject[] | undefined) ?? []).map(schema));
  if (s.properties !== undefined) m.message(25, namedSchemas(1, s.properties as JsonObject));
  return m.messages(31, vendorExtensions(s));
}

/** A message of repeated NamedSchema at `field` (Properties, Definitions). */
function namedSchemas(field: number, map: JsonObject): Message {
  return new Message().messages(
    field,
    Object.entries(map).map(([name, s]) =>
      new Message().string(1, name).message(2, schema(s as JsonObject)),
    ),
  );
}

/** ParametersItem{parameter}: a body parameter, or a query or path one. */
function parameter(p: JsonObject): Message {
  let param: Message;
  if (p.in === 'body') {
    param = new Message().message(
      1,
      new Message()
        .string(1, p.description as string | undefined)
        .string(2, p.name as string)
        .string(3, 'body')
        .bool(4, p.required as boolean | undefined)
        .message(5, schema(p.schema as JsonObject)),
    );
  } else {
    const query = p.in === 'query';
    const sub = new Message()
      .bool(1, p.required as boolean | undefined)
      .string(2, p.in as string)
      .string(3, p.description as string | undefined)
      .string(4, p.name as string)
      .string(query ? 6 : 5, p.type as string | undefined)
      .bool(query ? 20 : 19, p.uniqueItems as boolean | undefined);
    param = new Message().message(2, new Message().message(query ? 3 : 4, sub));
  }
  return new Message().message(1, param);
}

function operation(op: JsonObject): Message {
  const responses = new Message().messages(
    1,
    Object.entries((op.responses ?? {}) as JsonObject).map(([code, r]) => {
      const resp = r as JsonObject;
      const response = new Message().string(1, resp.description as string | undefined);
      if (resp.schema)
        response.message(2, new Message().message(1, schema(resp.schema as JsonObject)));
      return new Message().string(1, code).message(2, new Message().message(1, response));
    }),
  );
  return new Message()
    .string(3, op.description as string | undefined)
    .string(5, op.operationId as string | undefined)
    .strings(6, op.produces as string[] | undefined)
    .strings(7, op.consumes as string[] | undefined)
    .messages(8, ((op.parameters as JsonObject[] | undefined) ?? []).map(parameter))
    .message(9, responses)
    .strings(10, op.schemes as string[] | undefined)
    .messages(13, vendorExtensions(op));
}

const pathItemFields: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, patch: 8 };

function pathItem(item: JsonObject): Message {
  const m = new Message();
  for (const [method, field] of Object.entries(pathItemFields).sort(([, a], [, b]) => a - b)) {
    if (item[method]) m.message(field, operation(item[method] as JsonObject));
  }
  return m.messages(9, ((item.parameters as JsonObject[] | undefined) ?? []).map(parameter));
}

/** The protobuf Document of an OpenAPI v2 JSON document. */
export function encodeOpenAPIV2Document(doc: JsonObject): Uint8Array {
  const info = doc.info as JsonObject;
  const paths = new Message().messages(
    2,
    Object.entries(doc.paths as JsonObject).map(([p, item]) =>
      new Message().string(1, p).message(2, pathItem(item as JsonObject)),
    ),
  );
  return new Message()
    .string(1, doc.swagger as string)
    .message(2, new Message().string(1, info.title as string).string(2, info.version as string))
    .message(8, paths)
    .message(9, namedSchemas(1, doc.definitions as JsonObject))
    .finish();
}
