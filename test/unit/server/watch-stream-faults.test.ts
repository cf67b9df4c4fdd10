// Tests for the faults on a watch's stream (src/server/watch-stream-faults.ts) through the hook
// WatchServer gives them: a table of faults, the events offered on a fake clock, and what the
// client was written and whether its connection was cut.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import type { WatchEvent } from '../../../src/engine/http-face';
import type { FaultedWatchStream, WatchStreamFault } from '../../../src/server/handlers/watch';
import {
  DropConnection,
  OmitEndBookmark,
  StallWatch,
  StreamFaults,
} from '../../../src/server/watch-stream-faults';

const added = (name: string, rv: number): WatchEvent =>
  ({
    type: 'ADDED',
    object: { metadata: { name, resourceVersion: String(rv) } },
  }) as unknown as WatchEvent;
const bookmark = (rv: number, end = false): WatchEvent =>
  ({
    type: 'BOOKMARK',
    object: {
      metadata: {
        resourceVersion: String(rv),
        ...(end ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}),
      },
    },
  }) as unknown as WatchEvent;

/** A stream that records what was written, as WatchServer writes it, and the cut. */
class RecordedStream implements FaultedWatchStream {
  lines: string[] = [];
  cutAfter: number | undefined;
  get written(): number {
    return this.lines.length;
  }
  writeEvent(e: WatchEvent): void {
    if (this.cutAfter !== undefined) return; // the socket is half-closed: nothing more arrives
    const o = e.object as unknown as { metadata: { name?: string; resourceVersion: string } };
    this.lines.push(`${e.type} ${o.metadata.name ?? ''}@${o.metadata.resourceVersion}`);
  }
  cut(): void {
    this.cutAfter ??= this.lines.length;
  }
}

/** What a step does: offer an event (WatchServer.write), or move the clock. */
type Step = WatchEvent | number;

describe('watch stream faults (src/server/watch-stream-faults.ts)', () => {
  const cases: [
    string,
    (clock: FakeClock) => WatchStreamFault,
    Step[],
    string[],
    number | undefined,
  ][] = [
    [
      'stall-watch deliver: nothing (bookmarks neither) for 2 s, then everything held, in order',
      (c) => new StallWatch(c, 2000, 'deliver'),
      [added('a', 1), bookmark(2), 1999, added('b', 3), 1, added('c', 4)],
      ['ADDED a@1', 'BOOKMARK @2', 'ADDED b@3', 'ADDED c@4'],
      undefined,
    ],
    [
      'stall-watch held events are not written before the time',
      (c) => new StallWatch(c, 2000, 'deliver'),
      [added('a', 1), 1999],
      [],
      undefined,
    ],
    [
      'stall-watch drop: nothing, then the cut, the held events never written',
      (c) => new StallWatch(c, 2000, 'drop'),
      [added('a', 1), 2000, added('b', 2)],
      [],
      0,
    ],
    [
      'omit-end-bookmark: the initial events and the other bookmarks, not the end bookmark',
      () => new OmitEndBookmark(),
      [added('a', 1), added('b', 2), bookmark(2, true), bookmark(5), added('c', 6)],
      ['ADDED a@1', 'ADDED b@2', 'BOOKMARK @5', 'ADDED c@6'],
      undefined,
    ],
    [
      'drop-connection after 2: two events written, then the cut',
      () => new DropConnection(2),
      [added('a', 1), added('b', 2), added('c', 3)],
      ['ADDED a@1', 'ADDED b@2'],
      2,
    ],
    [
      'drop-connection after 0: cut as the stream begins',
      () => new DropConnection(0),
      [added('a', 1)],
      [],
      0,
    ],
    [
      'omit-end-bookmark and drop-connection after 2: the end bookmark does not count',
      () => new StreamFaults([new OmitEndBookmark(), new DropConnection(2)]),
      [added('a', 1), bookmark(1, true), added('b', 2), added('c', 3)],
      ['ADDED a@1', 'ADDED b@2'],
      2,
    ],
  ];
  for (const [name, make, steps, want, cutAfter] of cases)
    it(name, () => {
      const clock = new FakeClock(0);
      const fault = make(clock);
      const stream = new RecordedStream();
      fault.begin(stream);
      for (const s of steps) {
        if (typeof s === 'number') clock.step(s);
        else if (fault.admit(s, stream)) stream.writeEvent(s);
      }
      fault.end();
      assert.deepStrictEqual(stream.lines, want, name);
      assert.strictEqual(stream.cutAfter, cutAfter, `${name}: cut after`);
    });

  it('stall-watch: a watch that ends while stalled leaves no timer behind', () => {
    const clock = new FakeClock(0);
    const fault = new StallWatch(clock, 2000, 'deliver');
    const stream = new RecordedStream();
    fault.begin(stream);
    fault.admit(added('a', 1));
    fault.end();
    clock.step(5000);
    assert.deepStrictEqual(stream.lines, []);
  });
});
