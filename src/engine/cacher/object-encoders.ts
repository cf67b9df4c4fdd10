// Mirrors k8s.io/apimachinery pkg/runtime/serializer/json (Encode = json.NewEncoder(w).Encode: Go
// escaping plus "\n"), serializer/protobuf (the "k8s\0" prefix and the runtime.Unknown envelope)
// and serializer/versioning (codec identifiers), release-1.36: the two encoders a watch's objects
// go through, and how they use CachingObject.cacheEncode. Deliberate difference: the protobuf
// encoder's Unknown.raw holds the object's JSON (contentType "application/json"), not the
// generated protobuf of the typed object, which this engine does not have; the envelope bytes
// (prefix, field numbers, wire types, always-written strings) are the real ones.
import { setOwn } from '../encoding/own-key';
import { goJsonMarshal, type GoJsonValue } from '../encoding/go-json';
import type { KubeObject } from '../storage/objects';
import { CachingObject, type Identifier } from './caching-object';

/** An encoder for one content type and one target group-version. */
export interface ObjectEncoder {
  /** e.g. "application/json". */
  readonly contentType: string;
  /** e.g. "v1" or "apps/v1". */
  readonly groupVersion: string;
  /** The versioning codec's identifier: the CachingObject cache key. */
  readonly identifier: Identifier;
  /** Encodes without any caching (the function handed to cacheEncode). */
  encode(object: KubeObject): Uint8Array;
}

export const contentTypeJSON = 'application/json';
export const contentTypeProtobuf = 'application/vnd.kubernetes.protobuf';

/** json.Serializer.Identifier() for the plain JSON serializer: Go marshals the options map with sorted keys. */
export const jsonSerializerIdentifier: Identifier = goJsonMarshal({
  name: 'json',
  pretty: 'false',
  strict: 'false',
  yaml: 'false',
});

/** protobuf.Serializer.Identifier(). */
export const protobufSerializerIdentifier: Identifier = 'protobuf';

/** The bytes every Kubernetes protobuf payload starts with: "k8s\0". */
export const protoEncodingPrefix: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** versioning.identifier: json.Marshal of codecIdentifier{EncodeGV, Encoder, Name} with omitempty. */
export function versioningCodecIdentifier(
  encodeGV: string,
  encoderIdentifier: Identifier,
): Identifier {
  return goJsonMarshal({
    encodeGV: encodeGV === '' ? undefined : encodeGV,
    encoder: encoderIdentifier === '' ? undefined : encoderIdentifier,
    name: 'versioning',
  });
}

const utf8 = new TextEncoder();

// ObjectMeta's map and slice fields are omitempty: an empty (non-nil) one is not written.
const omitEmptyMetaFields = [
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

/** The object as json.Marshal would see it (empty omitempty metadata maps/slices dropped). */
function wireObject(object: KubeObject): GoJsonValue {
  const meta = (object as { metadata?: unknown }).metadata as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== 'object') return object as unknown as GoJsonValue;
  const drop = omitEmptyMetaFields.filter((f) => {
    const v = meta[f];
    return v !== null && typeof v === 'object' && Object.keys(v as object).length === 0;
  });
  if (drop.length === 0) return object as unknown as GoJsonValue;
  const cleanMeta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) if (!drop.includes(k)) setOwn(cleanMeta, k, v);
  return {
    ...(object as unknown as Record<string, GoJsonValue>),
    metadata: cleanMeta as GoJsonValue,
  };
}

/** The object's JSON bytes (no trailing newline). */
export function marshalObjectJSON(object: KubeObject): Uint8Array {
  return utf8.encode(goJsonMarshal(wireObject(object)));
}

/** application/json: json.Encoder.Encode output, i.e. Go-escaped JSON and a newline. */
export function newJSONEncoder(groupVersion: string): ObjectEncoder {
  return {
    contentType: contentTypeJSON,
    groupVersion,
    identifier: versioningCodecIdentifier(groupVersion, jsonSerializerIdentifier),
    encode: (object) => utf8.encode(goJsonMarshal(wireObject(object)) + '\n'),
  };
}

/** application/vnd.kubernetes.protobuf: "k8s\0" + runtime.Unknown{typeMeta, raw = object JSON, contentType}. */
export function newProtobufEncoder(groupVersion: string): ObjectEncoder {
  return {
    contentType: contentTypeProtobuf,
    groupVersion,
    identifier: versioningCodecIdentifier(groupVersion, protobufSerializerIdentifier),
    encode: (object) =>
      encodeUnknown(
        object.apiVersion ?? '',
        object.kind ?? '',
        marshalObjectJSON(object),
        contentTypeJSON,
      ),
  };
}

const sharedEncoders = new Map<string, ObjectEncoder>();

/**
 * The encoder for a content type and group-version, made once and shared (an encoder is
 * stateless, and its identifier is costly to compute): what every watch of that type uses.
 */
export function sharedEncoder(
  contentType: typeof contentTypeJSON | typeof contentTypeProtobuf,
  groupVersion: string,
): ObjectEncoder {
  const key = `${contentType}\u0000${groupVersion}`;
  let e = sharedEncoders.get(key);
  if (e === undefined) {
    e =
      contentType === contentTypeProtobuf
        ? newProtobufEncoder(groupVersion)
        : newJSONEncoder(groupVersion);
    sharedEncoders.set(key, e);
  }
  return e;
}

/**
 * What a serializer does with a runtime.CacheableObject: ask it for its cached bytes for this
 * encoder's identifier (encoding at most once); a plain object is encoded directly.
 */
export function encodeObject(
  encoder: ObjectEncoder,
  object: KubeObject | CachingObject,
): Uint8Array {
  // The encoder object itself, not a closure per call: 10k watchers make 10k calls per event.
  if (object instanceof CachingObject) return object.cacheEncodeFor(encoder);
  return encoder.encode(object);
}

/**
 * The runtime.Unknown protobuf message after the prefix, as gogo-protobuf writes it: field 1
 * TypeMeta{1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding, 4 contentType; proto2 non-pointer
 * strings are always written, even empty.
 */
export function encodeUnknown(
  apiVersion: string,
  kind: string,
  raw: Uint8Array,
  contentType: string,
  contentEncoding = '',
): Uint8Array {
  // Sized first, then written into one buffer: one encode per event and content type, on every event.
  const av = utf8.encode(apiVersion);
  const k = utf8.encode(kind);
  const ce = utf8.encode(contentEncoding);
  const ct = utf8.encode(contentType);
  const typeMetaLen = fieldSize(av.length) + fieldSize(k.length);
  const out = new Uint8Array(
    protoEncodingPrefix.length +
      fieldSize(typeMetaLen) +
      fieldSize(raw.length) +
      fieldSize(ce.length) +
      fieldSize(ct.length),
  );
  out.set(protoEncodingPrefix, 0);
  let off = protoEncodingPrefix.length;
  off = writeHeader(out, off, 1, typeMetaLen);
  off = writeField(out, off, 1, av);
  off = writeField(out, off, 2, k);
  off = writeField(out, off, 2, raw);
  off = writeField(out, off, 3, ce);
  writeField(out, off, 4, ct);
  return out;
}

/** Bytes of a length-delimited field with a one-byte tag (field numbers below 16). */
function fieldSize(payloadLength: number): number {
  return 1 + varintSize(payloadLength) + payloadLength;
}

function varintSize(n: number): number {
  let size = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 128)) size++;
  return size;
}

/** The tag (wire type 2) and the length of a length-delimited field; returns the offset after them. */
function writeHeader(out: Uint8Array, off: number, fieldNumber: number, length: number): number {
  out[off++] = (fieldNumber << 3) | 2;
  let v = length;
  while (v >= 0x80) {
    out[off++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[off++] = v;
  return off;
}

function writeField(
  out: Uint8Array,
  off: number,
  fieldNumber: number,
  payload: Uint8Array,
): number {
  off = writeHeader(out, off, fieldNumber, payload.length);
  out.set(payload, off);
  return off + payload.length;
}
