// Tests for src/engine/request (request-context.ts, request-path.ts) and for the context reaching
// every layer: each kind of request a Resource serves (LISTs served by the cache or etcd, with a
// consistent read's fallback; GETs; a watch-list; writes; the reflector's own LIST and WATCH) tags
// the engine events it causes with its id and nothing else's.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { RecordingSink, type EngineEvent } from '../../../src/engine/inspect/events';
import {
  RequestContexts,
  type HttpMethod,
  type RequestContext,
} from '../../../src/engine/request/request-context';
import { objectPath, requestPath } from '../../../src/engine/request/request-path';
import { createResource, type Resource } from '../../../src/engine/apiserver';

/** The apiserver's sequence, keeping every context it made. */
class KeptContexts extends RequestContexts {
  readonly made: RequestContext[] = [];
  override newContext(client: string, method: HttpMethod, path: string): RequestContext {
    const c = super.newContext(client, method, path);
    this.made.push(c);
    return c;
  }
}

const pods = { group: '', resource: 'pods' };

describe('request contexts', () => {
  it('ids are the apiserver sequence; the request line is method and path', () => {
    const seq = new RequestContexts();
    assert.deepStrictEqual(
      [seq.newContext('kubectl', 'GET', '/api/v1/pods'), seq.newContext('x', 'DELETE', '/p')],
      [
        { requestId: 1, client: 'kubectl', requestLine: 'GET /api/v1/pods' },
        { requestId: 2, client: 'x', requestLine: 'DELETE /p' },
      ],
    );
  });

  it('request paths as a client sends them', () => {
    const cases: Array<[string, string, string]> = [
      ['all namespaces', requestPath(pods, undefined, {}, false), '/api/v1/pods'],
      [
        'a namespaced, paged, selected list',
        requestPath(pods, 'ns', { limit: 5, labelSelector: 'a=b', continue: 'tok' }, false),
        '/api/v1/namespaces/ns/pods?labelSelector=a%3Db&limit=5&continue=tok',
      ],
      [
        'a watch keeps its watch parameters, a list drops them',
        requestPath(pods, 'ns', { resourceVersion: '7', allowWatchBookmarks: true }, true),
        '/api/v1/namespaces/ns/pods?watch=true&resourceVersion=7&allowWatchBookmarks=true',
      ],
      [
        'a grouped resource',
        requestPath({ group: 'apps', resource: 'deployments' }, 'ns', {}, false),
        '/apis/apps/v1/namespaces/ns/deployments',
      ],
      ['an object', objectPath(pods, 'ns', 'p'), '/api/v1/namespaces/ns/pods/p'],
    ];
    for (const [name, got, want] of cases) assert.strictEqual(got, want, name);
  });

  it("every event a request causes carries that request's id, and no other request's", async () => {
    const clock = new FakeClock(0);
    const insp = new RecordingSink();
    const requests = new KeptContexts();
    const r: Resource = createResource({
      clock,
      rand: new SeededRandom(3),
      eventSink: insp,
      requests,
      gates: { WatchList: true },
    });
    await r.createPod({ name: 'a', namespace: 'ns' }, 'writer');
    r.start();
    await r.waitReady();
    await r.step(20);
    await r.createPod({ name: 'b', namespace: 'ns' }, 'writer');
    await r.step(10);
    await r.watch({ namespace: 'ns', allowWatchBookmarks: true }, 'watcher');
    await r.step(10);
    await r.list({ namespace: 'ns', resourceVersion: '0' }, 'informer');
    await r.get('ns', 'a', '', false, 'getter');
    // Another resource moves etcd's revision and nobody asks etcd for progress: a consistent list
    // cannot catch up and falls back to etcd.
    const cms = createResource({
      clock,
      rand: new SeededRandom(4),
      etcd: r.etcd,
      requests,
      groupResource: { group: '', resource: 'configmaps' },
    });
    await cms.create({ metadata: { name: 'cm', namespace: 'ns' } }, 'writer');
    r.cacher.progressRequester.stop();
    const consistent = r.listContext({ namespace: 'ns' }, 'kubectl');
    const p = r.list({ namespace: 'ns' }, consistent);
    await r.step(3100);
    await p;
    await r.setLabels('ns', 'a', { x: 'y' }, 'writer');
    await r.delete('ns', 'b', 'writer');
    await r.step(10);
    r.flushEvents();
    r.stop();

    const byId = new Map(requests.made.map((c) => [c.requestId, c]));
    const tagged = insp.events.filter((e) => 'requestId' in e && e.requestId !== undefined);
    const idOf = (e: EngineEvent) => (e as { requestId?: number }).requestId as number;
    for (const e of tagged) assert.ok(byId.has(idOf(e)), `${e.type}: an id of a made context`);
    const typesOf = (c: RequestContext) =>
      [...new Set(tagged.filter((e) => idOf(e) === c.requestId).map((e) => e.type))].sort();
    const by = (client: string, line: RegExp) =>
      requests.made.filter((c) => c.client === client && line.test(c.requestLine));
    const one = (client: string, line: RegExp) => {
      const cs = by(client, line);
      assert.strictEqual(cs.length, 1, `${client} ${line}`);
      return cs[0];
    };
    const cases: Array<[string, RequestContext, string[]]> = [
      [
        'the reflector lists etcd',
        one('storage/cacher.go:/pods', /^GET \/api\/v1\/pods\?limit=10000$/),
        ['cacher/reflector', 'etcd/request', 'list/done', 'list/page'],
      ],
      [
        'the reflector watches etcd',
        one('storage/cacher.go:/pods', /^GET \/api\/v1\/pods\?watch=true&resourceVersion=2/),
        ['cacher/reflector', 'etcd/watch'],
      ],
      [
        'a consistent list: decision, current-RV lookup, wait, timeout, fallback to etcd',
        consistent,
        [
          'delegator/consistent-read',
          'delegator/decision',
          'delegator/fallback',
          'etcd/request',
          'list/done',
          'list/page',
          'watchcache/wait',
          'watchcache/wait-start',
        ],
      ],
      [
        'an RV "0" list from the cache',
        one('informer', /^GET \/api\/v1\/namespaces\/ns\/pods\?resourceVersion=0$/),
        ['cacher/list', 'delegator/decision'],
      ],
      [
        'a GET from etcd',
        one('getter', /^GET \/api\/v1\/namespaces\/ns\/pods\/a$/),
        ['delegator/decision', 'etcd/request'],
      ],
      [
        'a consistent watch-list: current-RV lookup, wait, the watcher',
        one(
          'watcher',
          /^GET \/api\/v1\/namespaces\/ns\/pods\?watch=true&allowWatchBookmarks=true$/,
        ),
        [
          'cacher/watch',
          'etcd/request',
          'list/done',
          'list/page',
          'watchcache/wait',
          'watcher/created',
        ],
      ],
      ['a create', by('writer', /^POST \/api\/v1\/namespaces\/ns\/pods$/)[0], ['etcd/request']],
      ['an update', one('writer', /^PUT \/api\/v1\/namespaces\/ns\/pods\/a$/), ['etcd/request']],
      ['a delete', one('writer', /^DELETE \/api\/v1\/namespaces\/ns\/pods\/b$/), ['etcd/request']],
    ];
    for (const [name, ctx, want] of cases) assert.deepStrictEqual(typesOf(ctx), want, name);
    const untaggedTypes = new Set(
      insp.events.filter((e) => idOf(e) === undefined).map((e) => e.type),
    );
    for (const t of ['etcd/request', 'list/page', 'list/done', 'watchcache/wait', 'cacher/watch'])
      assert.ok(!untaggedTypes.has(t as EngineEvent['type']), `every ${t} has a request id`);
  });
});
