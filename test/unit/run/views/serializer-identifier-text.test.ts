// Tests for src/run/views/serializer-identifier-text.ts: the Serialization tab's label of each
// serializer identifier, upstream's shapes (versioning codecIdentifier; watch.go's
// watchEncoderIdentifier over watchEmbeddedEncoderIdentifier). The second review of #24 saw five
// watch serializers of one run (JSON and Table, MODIFIED and DELETED, the Table's first event with
// headers) all labelled "versioning (watch)".
import * as assert from 'assert';
import { goJsonMarshal } from '../../../../src/engine/encoding/go-json';
import {
  jsonSerializerIdentifier,
  protobufSerializerIdentifier,
  versioningCodecIdentifier,
} from '../../../../src/engine/cacher/object-encoders';
import { identifierLabel } from '../../../../src/run/views/serializer-identifier-text';

const jsonV1 = versioningCodecIdentifier('v1', jsonSerializerIdentifier);
const jsonMeta = versioningCodecIdentifier('meta.k8s.io/v1', jsonSerializerIdentifier);

/** watchEmbeddedEncoderIdentifier of a Table watch (noHeaders once its first event was written). */
function table(noHeaders: boolean): string {
  return goJsonMarshal({
    name: 'watch-embedded',
    encoder: jsonMeta,
    target: 'meta.k8s.io/v1, Kind=Table',
    options: {},
    ...(noHeaders ? { noHeaders: true } : {}),
  });
}

/** watchEncoderIdentifier: the event's line, per event type. */
function watch(embedded: string, eventType: string): string {
  return goJsonMarshal({ name: 'watch', embeddedEncoder: embedded, encoder: jsonV1, eventType });
}

const cases: Array<[name: string, id: string, want: string]> = [
  ['the versioning codec over json', jsonV1, 'json v1'],
  [
    'over protobuf',
    versioningCodecIdentifier('apps/v1', protobufSerializerIdentifier),
    'protobuf apps/v1',
  ],
  ['a JSON watch, MODIFIED', watch(jsonV1, 'MODIFIED'), 'json v1 · MODIFIED'],
  ['a JSON watch, DELETED', watch(jsonV1, 'DELETED'), 'json v1 · DELETED'],
  [
    "a Table watch's first event (with headers)",
    watch(table(false), 'MODIFIED'),
    'Table meta.k8s.io/v1, with headers · MODIFIED',
  ],
  ["a Table watch's later events", watch(table(true), 'DELETED'), 'Table meta.k8s.io/v1 · DELETED'],
  ['not JSON: itself', 'protobuf', 'protobuf'],
];

describe('identifierLabel', () => {
  for (const [name, id, want] of cases)
    it(name, () => assert.strictEqual(identifierLabel(id), want, id));
  it('the five watch serializers of one run read apart', () => {
    const ids = [
      watch(jsonV1, 'MODIFIED'),
      watch(jsonV1, 'DELETED'),
      watch(table(false), 'MODIFIED'),
      watch(table(true), 'MODIFIED'),
      watch(table(true), 'DELETED'),
    ];
    assert.strictEqual(new Set(ids.map(identifierLabel)).size, ids.length);
  });
});
