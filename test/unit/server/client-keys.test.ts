// Keys from clients are data (issue #22 item 11): a `__proto__`, `constructor` or `toString` key in a
// ConfigMap's data survives every path that decodes, copies or merges a body — create and update
// (JSON, YAML, protobuf), merge patch, JSON patch, strategic merge patch — and is answered by GET,
// LIST and WATCH; a hostile body pollutes no prototype. Bodies are JSON text: an object literal
// with a `__proto__` key would set the literal's prototype instead.
import * as assert from 'assert';
import type { KubeObject } from '../../../src/engine/storage/objects';
import { ApiServer } from '../../../src/server/api-server';
import { printResults, type JsonValue } from '../../../src/server/jsonpath';
import { beforeUpdate } from '../../../src/server/registry/rest-update';
import { podStrategy } from '../../../src/server/registry/pod-strategy';
import { bytes, entry, envelope, str } from './protobuf-wire';

const hostileKeys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const hostileData = `{${hostileKeys.map((k) => `"${k}":"${k}-v"`).join(',')},"a":"b"}`;
const expectedData = (): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const k of [...hostileKeys, 'a'])
    Object.defineProperty(out, k, {
      value: `${k}-v`,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  out.a = 'b';
  return out;
};

async function call(
  server: ApiServer,
  method: string,
  path: string,
  body?: string | Uint8Array<ArrayBuffer>,
  contentType = 'application/json',
): Promise<{ status: number; text: string }> {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType },
    body,
  });
  return { status: r.status, text: await r.text() };
}

// The first line a watch sends; the watch is closed then.
async function firstWatchEvent(server: ApiServer, path: string): Promise<string> {
  const abort = new AbortController();
  const r = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${server.token}` },
    signal: abort.signal,
  });
  const reader = (r.body as ReadableStream<Uint8Array>).getReader();
  const dec = new TextDecoder();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  abort.abort();
  return text.slice(0, text.indexOf('\n'));
}

// The keys of a JSON object's `data`, as they appear in the text (JSON.parse keeps `__proto__` own).
function dataOf(text: string): Record<string, unknown> {
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

function sameEntries(
  actual: Record<string, unknown>,
  expected: Record<string, unknown>,
  msg: string,
): void {
  assert.deepStrictEqual(
    Object.entries(actual).sort(([a], [b]) => (a < b ? -1 : 1)),
    Object.entries(expected).sort(([a], [b]) => (a < b ? -1 : 1)),
    msg,
  );
}

/** A protobuf ConfigMap named `name` with the hostile data, as kubectl's typed client sends it. */
function protobufConfigMap(name: string): Uint8Array<ArrayBuffer> {
  const raw = [
    ...bytes(1, str(1, name)),
    ...hostileKeys.flatMap((k) => entry(2, k, `${k}-v`)),
    ...entry(2, 'a', 'b'),
  ];
  return envelope('v1', 'ConfigMap', raw);
}

const base = '/api/v1/namespaces/default/configmaps';
const plain = (name: string): string =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"a":"b"}}`;

interface WriteCase {
  name: string;
  /** Creates the object first (from `plain`) when the case updates or patches it. */
  existing: boolean;
  method: string;
  contentType: string;
  body: (name: string) => string | Uint8Array<ArrayBuffer>;
}

const jsonPatch =
  (ops: string): (() => string) =>
  () =>
    `[${ops}]`;
const addAll = hostileKeys
  .map((k) => `{"op":"add","path":"/data/${k}","value":"${k}-v"}`)
  .join(',');

const writeCases: WriteCase[] = [
  {
    name: 'create, JSON',
    existing: false,
    method: 'POST',
    contentType: 'application/json',
    body: (n) =>
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${n}"},"data":${hostileData}}`,
  },
  {
    name: 'create, YAML',
    existing: false,
    method: 'POST',
    contentType: 'application/yaml',
    body: (n) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n` +
      [...hostileKeys.map((k) => `  ${k}: ${k}-v\n`), '  a: b\n'].join(''),
  },
  {
    name: 'create, protobuf',
    existing: false,
    method: 'POST',
    contentType: 'application/vnd.kubernetes.protobuf',
    body: protobufConfigMap,
  },
  {
    name: 'update, JSON',
    existing: true,
    method: 'PUT',
    contentType: 'application/json',
    body: (n) =>
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${n}"},"data":${hostileData}}`,
  },
  {
    name: 'merge patch',
    existing: true,
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: () => `{"data":${hostileData}}`,
  },
  {
    name: 'strategic merge patch',
    existing: true,
    method: 'PATCH',
    contentType: 'application/strategic-merge-patch+json',
    body: () => `{"data":${hostileData}}`,
  },
  {
    name: 'JSON patch add',
    existing: true,
    method: 'PATCH',
    contentType: 'application/json-patch+json',
    body: jsonPatch(addAll),
  },
  {
    name: 'JSON patch replace',
    existing: true,
    method: 'PATCH',
    contentType: 'application/json-patch+json',
    body: jsonPatch(
      addAll.replace(/"valueOf-v"/, '"x"') +
        ',{"op":"replace","path":"/data/valueOf","value":"valueOf-v"}',
    ),
  },
  {
    name: 'JSON patch move and copy',
    existing: true,
    method: 'PATCH',
    contentType: 'application/json-patch+json',
    body: jsonPatch(
      [
        '{"op":"add","path":"/data/tmp","value":"__proto__-v"}',
        '{"op":"move","from":"/data/tmp","path":"/data/__proto__"}',
        '{"op":"add","path":"/data/constructor","value":"constructor-v"}',
        '{"op":"copy","from":"/data/__proto__","path":"/data/toString"}',
        '{"op":"replace","path":"/data/toString","value":"toString-v"}',
        '{"op":"add","path":"/data/hasOwnProperty","value":"hasOwnProperty-v"}',
        '{"op":"add","path":"/data/valueOf","value":"valueOf-v"}',
      ].join(','),
    ),
  },
];

describe('keys from clients are data (__proto__, constructor, …)', () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0 });
  });
  after(async () => {
    await server.stop();
  });

  writeCases.forEach((c, i) => {
    it(`${c.name}: keeps every data key in the answer, GET, LIST and WATCH`, async () => {
      const name = `keys-${i}`;
      if (c.existing) {
        const created = await call(server, 'POST', base, plain(name));
        assert.strictEqual(created.status, 201, created.text);
      }
      const watchFrom = JSON.parse((await call(server, 'GET', base)).text).metadata.resourceVersion;
      const path = c.method === 'POST' ? base : `${base}/${name}`;
      const w = await call(server, c.method, path, c.body(name), c.contentType);
      assert.strictEqual(w.status, c.existing ? 200 : 201, `${c.name}: ${w.text}`);
      sameEntries(dataOf(w.text), expectedData(), `${c.name}: the write's answer`);
      const got = await call(server, 'GET', `${base}/${name}`);
      sameEntries(dataOf(got.text), expectedData(), `${c.name}: GET`);
      const list = JSON.parse(
        (await call(server, 'GET', `${base}?fieldSelector=metadata.name%3D${name}`)).text,
      );
      sameEntries(list.items[0].data, expectedData(), `${c.name}: LIST`);
      const event = await firstWatchEvent(
        server,
        `${base}?watch=1&resourceVersion=${watchFrom}&fieldSelector=metadata.name%3D${name}`,
      );
      sameEntries(
        (JSON.parse(event) as { object: { data: Record<string, unknown> } }).object.data,
        expectedData(),
        `${c.name}: WATCH`,
      );
    });
  });

  const pollutions = [
    {
      name: 'top level',
      body: `{"apiVersion":"v1","kind":"ConfigMap","__proto__":{"polluted":"yes"},"metadata":{"name":"p-0"}}`,
    },
    {
      name: 'metadata',
      body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p-1","__proto__":{"polluted":"yes"}}}`,
    },
    {
      name: 'labels',
      body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p-2","labels":{"constructor":"c","__proto__":{"polluted":"yes"}}}}`,
    },
    {
      name: 'data',
      body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p-3"},"data":{"constructor":{"prototype":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}}`,
    },
  ];
  for (const p of pollutions)
    it(`a hostile __proto__ in ${p.name} pollutes no prototype`, async () => {
      await call(server, 'POST', base, p.body);
      await call(
        server,
        'PATCH',
        `${base}/p-0`,
        `{"__proto__":{"polluted":"yes"},"data":{"__proto__":{"polluted":"yes"}}}`,
        'application/merge-patch+json',
      );
      await call(
        server,
        'PATCH',
        `${base}/p-0`,
        `{"__proto__":{"polluted":"yes"},"data":{"__proto__":{"polluted":"yes"}}}`,
        'application/strategic-merge-patch+json',
      );
      await call(
        server,
        'PATCH',
        `${base}/p-0`,
        `[{"op":"add","path":"/__proto__/polluted","value":"yes"}]`,
        'application/json-patch+json',
      );
      assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
      assert.strictEqual((Object.prototype as Record<string, unknown>).polluted, undefined);
    });

  it('a metadata.__proto__ is a key of its own, never the labels a prototype would lend', async () => {
    const r = await call(
      server,
      'POST',
      base,
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"smuggle","__proto__":{"labels":{"not valid!":"x","smuggled":"yes"}}}}`,
    );
    assert.strictEqual(r.status, 201, r.text);
    const meta = JSON.parse(r.text).metadata as Record<string, unknown>;
    assert.strictEqual(Object.hasOwn(meta, 'labels'), false, r.text);
    const got = JSON.parse((await call(server, 'GET', `${base}/smuggle`)).text).metadata;
    assert.strictEqual(Object.hasOwn(got, 'labels'), false, JSON.stringify(got));
    // Nor does a label selector see them, in the cache or in storage.
    for (const rv of ['', '&resourceVersion=0']) {
      const list = JSON.parse(
        (await call(server, 'GET', `${base}?labelSelector=smuggled%3Dyes${rv}`)).text,
      );
      assert.deepStrictEqual(list.items, [], `labelSelector${rv}`);
    }
  });

  it('a top-level __proto__ lends the object no fields: its data is neither validated nor stored', async () => {
    const r = await call(
      server,
      'POST',
      base,
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"lend"},"__proto__":{"data":{"a b":"1"}}}`,
    );
    assert.strictEqual(r.status, 201, r.text);
    assert.strictEqual(Object.hasOwn(JSON.parse(r.text), 'data'), false, r.text);
  });

  it('labels: constructor and toString are valid keys and kept; __proto__ is an invalid one (422)', async () => {
    const ok = await call(
      server,
      'POST',
      base,
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"lbl","labels":{"constructor":"c","toString":"t"},"annotations":{"hasOwnProperty":"h"}}}`,
    );
    assert.strictEqual(ok.status, 201, ok.text);
    const meta = JSON.parse(ok.text).metadata;
    sameEntries(meta.labels, { constructor: 'c', toString: 't' }, 'labels');
    sameEntries(meta.annotations, { hasOwnProperty: 'h' }, 'annotations');
    const bad = await call(
      server,
      'POST',
      base,
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"lbl2","labels":{"__proto__":"x"}}}`,
    );
    assert.strictEqual(bad.status, 422, bad.text);
    assert.match(
      JSON.parse(bad.text).message,
      /metadata\.labels: Invalid value: "__proto__": name part must consist of/,
    );
  });

  it('a spec that trades a key for __proto__ is a change: the pod generation moves on', () => {
    const meta =
      '"metadata":{"name":"p","namespace":"default","uid":"u","resourceVersion":"3","generation":1}';
    const old = JSON.parse(
      `{${meta},"spec":{"containers":[{"name":"c","image":"i"}],"nodeName":"n"}}`,
    ) as KubeObject;
    const next = JSON.parse(
      `{${meta},"spec":{"containers":[{"name":"c","image":"i"}],"__proto__":{}}}`,
    ) as KubeObject;
    beforeUpdate(podStrategy, next, old, 'default');
    assert.strictEqual(next.metadata.generation, 2);
  });

  it('a printer column that selects a map prints its __proto__ key (jsonpath PrintResults)', () => {
    const data = JSON.parse('{"__proto__":"p","b":"c","a":"b"}') as JsonValue;
    assert.strictEqual(printResults([data]), '{"__proto__":"p","a":"b","b":"c"}');
  });
});
