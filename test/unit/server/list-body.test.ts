// Tests for a LIST's JSON body over HTTP (src/server/handlers/get.ts listJSON with the item memo of
// src/server/list-item-json.ts): byte for byte the list goJsonMarshal writes, on the first LIST and
// on later ones served from the memoised items, after writes that replace, add and delete objects;
// and the encodings that must not come from the memo (pretty, Table, PartialObjectMetadataList)
// are their own.
import * as assert from 'assert';
import {
  goJsonMarshal,
  goJsonMarshalIndent,
  type GoJsonValue,
} from '../../../src/engine/http-face';
import { ApiServer } from '../../../src/server/api-server';
import { withoutTypeMeta } from '../../../src/server/list-item-json';
import { call, type Reply } from './http-client';

/** One request with the server's token (http-client.ts), an Accept header when asked. */
const send = (
  server: ApiServer,
  method: string,
  path: string,
  o: { body?: unknown; accept?: string; contentType?: string } = {},
): Promise<Reply> =>
  call(server, method, path, o.body, o.contentType, {
    headers: o.accept === undefined ? {} : { accept: o.accept },
  });

const pod = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'list-body' }, ...extra },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
});

describe('LIST body (JSON, memoised items)', function () {
  let server: ApiServer;
  const collection = '/api/v1/namespaces/default/pods';
  before(async () => {
    server = await ApiServer.start({ port: 0 });
  });
  after(async () => {
    await server.stop();
  });

  /** The list as goJsonMarshal writes it, from the watch cache's objects now. */
  const wantList = (rv: string): string => {
    const pods = server.resources.all.find((r) => r.resource === 'pods')!.engine;
    const items = pods.watchCache
      .list()
      .filter((e) => e.key.startsWith('/pods/default/'))
      .map((e) => withoutTypeMeta(e.object));
    return (
      goJsonMarshal({
        kind: 'PodList',
        apiVersion: 'v1',
        metadata: { resourceVersion: rv },
        items,
      } as unknown as GoJsonValue) + '\n'
    );
  };
  const rvOf = (text: string): string =>
    (JSON.parse(text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

  // Each step writes (or not), then LISTs twice: both bodies are the marshalled list, and each
  // `contains` string (Go's escaping of what the step wrote) is in them.
  const steps: {
    name: string;
    write?: { method: string; path: string; body?: unknown; contentType?: string };
    contains?: string[];
  }[] = [
    { name: 'an empty list' },
    {
      name: 'HTML characters, U+2028/U+2029, quotes and backslashes',
      write: {
        method: 'POST',
        path: collection,
        body: pod('escaped', { annotations: { note: '<a href="x">&</a>\u2028\u2029 \\ "q"' } }),
      },
      contains: [
        '"note":"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e\\u2028\\u2029 \\\\ \\"q\\""',
      ],
    },
    {
      name: 'non-ASCII text (UTF-8 bytes, not escapes)',
      write: {
        method: 'POST',
        path: collection,
        body: pod('unicode', { annotations: { note: 'ünïcödé 😀 日本' } }),
      },
      contains: ['"note":"ünïcödé 😀 日本"'],
    },
    {
      name: 'managedFields (written by the server on create)',
      write: { method: 'POST', path: collection, body: pod('managed') },
      contains: ['"managedFields":[{"manager":'],
    },
    {
      name: 'an object replaced (a new resourceVersion, a new object)',
      write: {
        method: 'PATCH',
        path: `${collection}/managed`,
        body: { metadata: { labels: { app: 'list-body', patched: 'yes' } } },
        contentType: 'application/merge-patch+json',
      },
      contains: ['"patched":"yes"'],
    },
    {
      name: 'an object deleted',
      write: { method: 'DELETE', path: `${collection}/unicode` },
    },
    {
      name: 'an object added after the others were laid out',
      write: { method: 'POST', path: collection, body: pod('added') },
      contains: ['"name":"added"'],
    },
    {
      // added, escaped, managed were laid out in one body: the two left are not next to each other.
      name: 'the middle object deleted (a gap in the body laid out)',
      write: { method: 'DELETE', path: `${collection}/escaped` },
    },
  ];

  for (const s of steps) {
    it(`${s.name}: the marshalled list, first and memoised`, async () => {
      if (s.write) {
        const w = await send(server, s.write.method, s.write.path, s.write);
        assert.ok(w.status < 300, `${s.name}: write ${w.status} ${w.text}`);
      }
      for (const round of ['first', 'memoised']) {
        const r = await send(server, 'GET', collection);
        assert.strictEqual(r.status, 200, r.text);
        assert.strictEqual(r.text, wantList(rvOf(r.text)), `${s.name}: ${round}`);
        for (const c of s.contains ?? []) assert.ok(r.text.includes(c), `${s.name}: ${c}`);
      }
      if (s.name === 'an object deleted') assert.ok(!wantList('').includes('"name":"unicode"'));
    });
  }

  // Encodings that differ by request: written from the objects, never from the memo's bytes.
  const other: { name: string; path: string; accept?: string; check: (text: string) => void }[] = [
    {
      name: 'pretty',
      path: `${collection}?pretty=true`,
      check: (text) => {
        const rv = rvOf(text);
        const pods = server.resources.all.find((r) => r.resource === 'pods')!.engine;
        const items = pods.watchCache
          .list()
          .filter((e) => e.key.startsWith('/pods/default/'))
          .map((e) => withoutTypeMeta(e.object));
        const list = {
          kind: 'PodList',
          apiVersion: 'v1',
          metadata: { resourceVersion: rv },
          items,
        };
        assert.strictEqual(text, goJsonMarshalIndent(list as unknown as GoJsonValue));
      },
    },
    {
      name: 'a Table',
      path: collection,
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
      check: (text) => {
        const t = JSON.parse(text) as { kind: string; rows: { cells: unknown[] }[] };
        assert.strictEqual(t.kind, 'Table');
        assert.ok(t.rows.length > 0 && t.rows.every((row) => row.cells.length > 0), text);
      },
    },
    {
      name: 'PartialObjectMetadataList',
      path: collection,
      accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
      check: (text) => {
        const l = JSON.parse(text) as { kind: string; items: Record<string, unknown>[] };
        assert.strictEqual(l.kind, 'PartialObjectMetadataList');
        for (const item of l.items)
          assert.deepStrictEqual(Object.keys(item), ['kind', 'apiVersion', 'metadata'], text);
      },
    },
  ];
  for (const c of other) {
    it(`${c.name}: its own encoding, between memoised LISTs`, async () => {
      const plain = await send(server, 'GET', collection);
      const r = await send(server, 'GET', c.path, { accept: c.accept });
      assert.strictEqual(r.status, 200, r.text);
      assert.notStrictEqual(r.text, plain.text);
      c.check(r.text);
      const again = await send(server, 'GET', collection);
      assert.strictEqual(again.text, wantList(rvOf(again.text)), `${c.name}: the plain LIST after`);
    });
  }
});
