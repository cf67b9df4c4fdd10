// A serializer identifier (runtime.Identifier) as a person reads it, for the Serialization tab.
// Mirrors the identifiers' shapes in k8s.io/apimachinery serializer/versioning (codecIdentifier)
// and k8s.io/apiserver endpoints/handlers/watch.go (watchEncoderIdentifier over
// watchEmbeddedEncoderIdentifier), release-1.36; the whole identifier stays in the tooltip.

/** A JSON identifier's fields, or undefined when it is not a JSON object. */
function fields(id: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(id) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The versioning codec's: "json v1", "protobuf apps/v1"; another encoder's: its own label. */
function codecLabel(id: string): string {
  const v = fields(id);
  if (!v) return id;
  if (v.name === 'watch-embedded') return embeddedLabel(v);
  let encoder = typeof v.encoder === 'string' ? v.encoder : '';
  const e = fields(encoder);
  if (e && typeof e.name === 'string')
    encoder = `${e.name}${e.yaml === 'true' ? ' (yaml)' : ''}${e.pretty === 'true' ? ' (pretty)' : ''}`;
  const label = [encoder, typeof v.encodeGV === 'string' ? v.encodeGV : '']
    .filter(Boolean)
    .join(' ');
  const wrapper = typeof v.name === 'string' && v.name !== 'versioning' ? ` (${v.name})` : '';
  return label ? `${label}${wrapper}` : id;
}

/** watchEmbeddedEncoderIdentifier: the object converted to `target` ("Table meta.k8s.io/v1"). */
function embeddedLabel(v: Record<string, unknown>): string {
  const target = typeof v.target === 'string' ? v.target : '';
  const m = /^(.*), Kind=(.*)$/.exec(target);
  const label = m ? `${m[2]} ${m[1]}` : target;
  // The first Table of a watch carries the column definitions; later ones say noHeaders.
  return m?.[2] === 'Table' && v.noHeaders !== true ? `${label}, with headers` : label;
}

/**
 * A serializer identifier as a person reads it. Upstream identifiers are JSON: the versioning
 * codec's ({"encodeGV":"v1","encoder":"{\"name\":\"json\",…}","name":"versioning"}) reads "json
 * v1"; a watch event's (watchEncoderIdentifier: the embedded object's encoder, the event line's
 * encoder and the event type, one per type) reads by what tells them apart, its object's encoding
 * and its type: "json v1 · MODIFIED", "Table meta.k8s.io/v1, with headers · MODIFIED".
 */
export function identifierLabel(id: string): string {
  const v = fields(id);
  if (!v) return id;
  if (v.name === 'watch' && typeof v.embeddedEncoder === 'string') {
    const type = typeof v.eventType === 'string' && v.eventType !== '' ? ` · ${v.eventType}` : '';
    return `${codecLabel(v.embeddedEncoder)}${type}`;
  }
  return codecLabel(id);
}
