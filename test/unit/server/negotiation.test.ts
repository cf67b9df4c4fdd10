// Tests for src/server/negotiation.ts: upstream's negotiate_test.go TestNegotiate cases that a
// JSON-only server can answer, the Accept headers kubectl and client-go send, the 406s and
// optionsForTransform's 400.
import * as assert from 'assert';
import {
  negotiateEncoding,
  parseAccept,
  type NegotiationRequest,
} from '../../../src/server/negotiation';

const notAcceptable =
  'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

const kubectlTable =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const metadataInformerList =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

const cases: {
  name: string;
  req: NegotiationRequest;
  convert?: string;
  pretty?: boolean;
  error?: string;
}[] = [
  // pick a default
  { name: 'no Accept: the first type', req: {} },
  { name: 'empty Accept', req: { accept: '' } },
  { name: '*/*', req: { accept: '*/*' } },
  { name: 'application/*', req: { accept: 'application/*' } },
  { name: 'application/json', req: { accept: 'application/json' } },
  { name: 'pretty=1 in Accept', req: { accept: 'application/json; pretty=1' }, pretty: true },
  {
    name: 'an unrecognized type first',
    req: { accept: 'unrecognized/stuff,application/json; pretty=1' },
    pretty: true,
  },
  {
    name: 'query param triggers pretty',
    req: { accept: 'application/json', query: new URLSearchParams('pretty=1') },
    pretty: true,
  },
  { name: 'curl is pretty', req: { accept: 'application/json', userAgent: 'curl' }, pretty: true },
  { name: 'Wget is pretty', req: { accept: 'application/json', userAgent: 'Wget' }, pretty: true },
  {
    name: 'browsers are pretty',
    req: { accept: 'application/json', userAgent: 'Mozilla/5.0' },
    pretty: true,
  },
  {
    name: 'a bogus conversion is skipped',
    req: { accept: 'application/json;as=BOGUS;v=v1beta1;g=meta.k8s.io, application/json' },
  },
  { name: 'application/BOGUS is skipped', req: { accept: 'application/BOGUS, application/json' } },
  { name: 'kubectl get: Table v1', req: { accept: kubectlTable }, convert: 'meta.k8s.io/v1 Table' },
  {
    name: 'Table v1beta1',
    req: { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' },
    convert: 'meta.k8s.io/v1beta1 Table',
  },
  {
    name: 'metadata informer list: protobuf skipped, JSON PartialObjectMetadataList',
    req: { accept: metadataInformerList },
    convert: 'meta.k8s.io/v1 PartialObjectMetadataList',
  },
  {
    name: 'PartialObjectMetadata v1beta1',
    req: { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1' },
    convert: 'meta.k8s.io/v1beta1 PartialObjectMetadata',
  },
  {
    name: 'q values order the clauses',
    req: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5, application/json' },
  },
  {
    name: 'q values order the clauses (Table preferred)',
    req: { accept: 'application/json;q=0.5, application/json;as=Table;v=v1;g=meta.k8s.io' },
    convert: 'meta.k8s.io/v1 Table',
  },
  {
    name: 'a Table of another version is not served',
    req: { accept: 'application/json;as=Table;v=v2;g=meta.k8s.io' },
    error: notAcceptable,
  },
  {
    name: 'a Table without a group is not served',
    req: { accept: 'application/json;as=Table;v=v1' },
    error: notAcceptable,
  },
  { name: 'sv must name meta v1', req: { accept: 'application/json;sv=v2' }, error: notAcceptable },
  { name: 'stream=watch is allowed', req: { accept: 'application/json;stream=watch' } },
  {
    name: 'other streams are not',
    req: { accept: 'application/json;stream=other' },
    error: notAcceptable,
  },
  {
    name: 'protobuf only: not served here',
    req: { accept: 'application/vnd.kubernetes.protobuf' },
    error: notAcceptable,
  },
  { name: 'yaml only: not served here', req: { accept: 'application/yaml' }, error: notAcceptable },
  {
    name: '"application" is not a media type',
    req: { accept: 'application' },
    error: notAcceptable,
  },
  { name: 'text/html', req: { accept: 'text/html' }, error: notAcceptable },
  {
    name: 'an unknown includeObject is 400',
    req: { accept: kubectlTable, query: new URLSearchParams('includeObject=Foo') },
    error: `Unable to convert to Table as requested: includeObject: Invalid value: "Foo": must be 'Metadata', 'Object', 'None', or empty`,
  },
];

describe('negotiateEncoding (negotiate.go, TestNegotiate)', () => {
  for (const c of cases) {
    it(c.name, () => {
      for (const target of ['object', 'list', 'watch'] as const) {
        const r = negotiateEncoding(c.req, target);
        if (c.error !== undefined) {
          assert.ok(!r.ok, `${target}: expected an error`);
          assert.strictEqual(r.status.message, c.error);
          assert.strictEqual(r.status.code, c.error.startsWith('Unable') ? 400 : 406);
          assert.strictEqual(
            r.status.reason,
            c.error.startsWith('Unable') ? 'BadRequest' : 'NotAcceptable',
          );
          continue;
        }
        assert.ok(r.ok, `${target}: ${r.ok ? '' : r.status.message}`);
        assert.strictEqual(r.encoding.contentType, 'application/json');
        const convert = r.encoding.convert;
        assert.strictEqual(
          convert === undefined ? undefined : `${convert.group}/${convert.version} ${convert.kind}`,
          c.convert,
        );
        assert.strictEqual(r.encoding.pretty, c.pretty ?? false);
      }
    });
  }

  it('decodes includeObject for a Table', () => {
    for (const v of ['None', 'Metadata', 'Object', '']) {
      const r = negotiateEncoding(
        { accept: kubectlTable, query: new URLSearchParams(`includeObject=${v}`) },
        'list',
      );
      assert.ok(r.ok);
      assert.deepStrictEqual(r.encoding.tableOptions, { includeObject: v, noHeaders: false });
    }
  });
});

describe('parseAccept (goautoneg)', () => {
  it('sorts as sort.Sort with goautoneg Less does: a specific subtype passes a wildcard one whatever its q', () => {
    const clauses = parseAccept(
      '*/*;q=0.8, text/*, application/json;as=Table, application/json;q=0.9, text/html',
    );
    assert.deepStrictEqual(
      clauses.map(
        (c) => `${c.type}/${c.subType} ${c.q}${c.params.size ? ' ' + [...c.params].join(';') : ''}`,
      ),
      [
        'application/json 1 as,Table',
        'text/html 1',
        'application/json 0.8999999761581421',
        'text/* 1',
        '*/* 0.800000011920929',
      ],
    );
  });

  it('skips a clause without a subtype, and a q that does not parse counts as 0', () => {
    const clauses = parseAccept('application, application/json;q= 0.5, *');
    assert.deepStrictEqual(
      clauses.map((c) => [c.type, c.subType, c.q]),
      [
        ['*', '*', 1],
        ['application', 'json', 0],
      ],
    );
  });
});
