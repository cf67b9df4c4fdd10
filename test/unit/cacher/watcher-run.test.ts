// Tests for src/engine/cacher/watcher-run.ts: a run counts an event once for all its members, and
// encodes (or hits) as the members one by one would: once per encoder, the rest cache hits; when
// it cannot speak for them, the members take the event one by one.
import * as assert from 'assert';
import { makePod, type KubeObject } from '../../../src/engine/storage/objects';
import { CachingObject, newCachingObject } from '../../../src/engine/cacher/caching-object';
import type { CacheWatcher } from '../../../src/engine/cacher/cache-watcher';
import type { RunCounts } from '../../../src/engine/cacher/in-place-delivery';
import type { WatchEvent, WatchObject } from '../../../src/engine/cacher/watch';
import {
  sharedEncoder,
  contentTypeJSON,
  contentTypeProtobuf,
  type ObjectEncoder,
} from '../../../src/engine/cacher/object-encoders';
import type { WatchCacheEvent } from '../../../src/engine/cacher/watch-cache-event';
import { WatcherRun, type RunMember } from '../../../src/engine/cacher/watcher-run';

const json = sharedEncoder(contentTypeJSON, 'v1');
const proto = sharedEncoder(contentTypeProtobuf, 'v1');

/** A member that records how it joined and what it was offered alone, and answers the filter with `interested`. */
class FakeMember implements RunMember {
  joined: { run: RunCounts; encoderIndex: number } | undefined;
  offered: number[] = [];
  constructor(
    readonly runEncoder: ObjectEncoder | undefined,
    readonly runTaskResourceVersion = 10,
    private readonly interested = true,
  ) {}
  convertToWatchEvent(event: WatchCacheEvent<WatchObject>): WatchEvent | undefined {
    return this.interested ? { type: 'ADDED', object: event.object as WatchObject } : undefined;
  }
  joinRun(run: RunCounts, encoderIndex: number): void {
    this.joined = { run, encoderIndex };
  }
  nonblockingAdd(event: WatchCacheEvent<WatchObject>, blocked: CacheWatcher[]): void {
    this.offered.push(event.resourceVersion);
    if (!this.interested) blocked.push(this as unknown as CacheWatcher);
  }
}

function event(object: WatchObject, resourceVersion = 11): WatchCacheEvent<WatchObject> {
  return {
    type: 'ADDED',
    object,
    objLabels: {},
    objFields: {},
    key: '/pods/ns/p',
    resourceVersion,
    recordTime: 0,
  };
}

function pod(): KubeObject {
  return makePod({ name: 'p', namespace: 'ns' });
}

describe('WatcherRun', () => {
  it('counts one delivery for every member, one encode per encoder and a hit for each other member', () => {
    const members = [
      new FakeMember(json),
      new FakeMember(proto),
      new FakeMember(json),
      new FakeMember(undefined),
      new FakeMember(json),
    ];
    const run = new WatcherRun(members);
    assert.deepStrictEqual(run.encoders, [json, proto], 'encoders in the order they first appear');
    assert.deepStrictEqual(run.membersPerEncoder, [3, 1]);
    assert.deepStrictEqual(
      members.map((m) => m.joined?.encoderIndex),
      [0, 1, 0, -1, 0],
    );
    const object = newCachingObject(pod());
    assert.strictEqual(run.dispatch(event(object)), true);
    assert.strictEqual(run.delivered, 1);
    assert.strictEqual(run.filtered, 0);
    assert.deepStrictEqual(run.bytes, [json.encode(pod()).length, proto.encode(pod()).length]);
    const counts = object.serializationCounts();
    assert.deepStrictEqual({ ...counts.get(json.identifier) }, { encodes: 1, hits: 2, errors: 0 });
    assert.deepStrictEqual({ ...counts.get(proto.identifier) }, { encodes: 1, hits: 0, errors: 0 });
  });

  it('counts a filtered event for every member, encoding nothing', () => {
    const run = new WatcherRun([new FakeMember(json, 10, false), new FakeMember(json, 10, false)]);
    const object = newCachingObject(pod());
    assert.strictEqual(run.dispatch(event(object)), true);
    assert.strictEqual(run.filtered, 1);
    assert.strictEqual(run.delivered, 0);
    assert.strictEqual(object.serializationCounts().size, 0);
  });

  it('leaves the event to the members one by one when it cannot speak for all of them', () => {
    const quiet = (): CachingObject => newCachingObject(pod());
    const stale = new WatcherRun([new FakeMember(json), new FakeMember(json)]);
    stale.valid = false;
    assert.strictEqual(stale.dispatch(event(quiet())), false, 'a member changed');
    const late = new WatcherRun([new FakeMember(json, 10), new FakeMember(json, 11)]);
    assert.strictEqual(late.maxTaskResourceVersion, 11);
    assert.strictEqual(late.dispatch(event(quiet(), 11)), false, 'a member would skip RV 11');
    assert.strictEqual(late.dispatch(event(quiet(), 12)), true);
    const run = new WatcherRun([new FakeMember(json), new FakeMember(json)]);
    assert.strictEqual(
      run.dispatch(event(pod())),
      false,
      'a plain object: each member gets its own copy',
    );
    const heard = newCachingObject(pod(), { eventSink: { encoded: () => undefined } });
    assert.strictEqual(heard.quiet, false);
    assert.strictEqual(run.dispatch(event(heard)), false, 'an inspector hears of every encode');
    assert.strictEqual(run.delivered, 0);
  });

  it('as a dispatch entry, takes the event for all, or offers it to each member in order', () => {
    const members = [new FakeMember(json), new FakeMember(json, 10, false), new FakeMember(json)];
    const run = new WatcherRun(members);
    const blocked: CacheWatcher[] = [];
    run.nonblockingAdd(event(newCachingObject(pod()), 11), blocked);
    assert.deepStrictEqual(
      members.map((m) => m.offered),
      [[], [], []],
      'taken by the run',
    );
    run.valid = false;
    run.nonblockingAdd(event(newCachingObject(pod()), 12), blocked);
    assert.deepStrictEqual(
      members.map((m) => m.offered),
      [[12], [12], [12]],
    );
    assert.deepStrictEqual(blocked, [members[1]], 'the ones that did not take it');
  });
});
