// No upstream counterpart: the faults that act on a watch's stream once it is served (what a
// half-open connection, a non-conforming server or a cut connection does to a client), through
// the one hook WatchServer has (handlers/watch.ts WatchStreamFault). Built only for a watch a fault
// matched; a watch no fault matched carries nothing.
import type { Clock, Timer } from '../engine';
import { hasInitialEventsEndAnnotation, type WatchEvent } from '../engine/http-face';
import type { FaultedWatchStream, WatchStreamFault } from './handlers/watch';

/** stall-watch: nothing at all for `ms` (not even bookmarks), then what was held, or the cut. */
export class StallWatch implements WatchStreamFault {
  private held: WatchEvent[] | undefined = [];
  private timer: Timer | undefined;
  private cut = false;

  constructor(
    private readonly clock: Pick<Clock, 'afterFunc'>,
    private readonly ms: number,
    private readonly then: 'deliver' | 'drop',
  ) {}

  begin(stream: FaultedWatchStream): void {
    this.timer = this.clock.afterFunc(this.ms, () => {
      const held = this.held ?? [];
      this.held = undefined;
      if (this.then === 'drop') {
        this.cut = true;
        stream.cut();
        return;
      }
      for (const e of held) stream.writeEvent(e);
    });
  }

  admit(event: WatchEvent): boolean {
    if (this.cut) return false;
    if (this.held === undefined) return true;
    this.held.push(event);
    return false;
  }

  end(): void {
    this.timer?.stop();
    this.held = undefined;
  }
}

/** omit-end-bookmark: the initial events, and no `k8s.io/initial-events-end` bookmark after them. */
export class OmitEndBookmark implements WatchStreamFault {
  begin(): void {}

  admit(event: WatchEvent): boolean {
    return !(event.type === 'BOOKMARK' && hasInitialEventsEndAnnotation(event.object));
  }

  end(): void {}
}

/** drop-connection: the connection cut after `afterEvents` events are written. */
export class DropConnection implements WatchStreamFault {
  private cut = false;

  constructor(private readonly afterEvents: number) {}

  begin(stream: FaultedWatchStream): void {
    if (this.afterEvents === 0) this.cutNow(stream);
  }

  admit(event: WatchEvent, stream: FaultedWatchStream): boolean {
    if (this.cut) return false;
    if (stream.written + 1 < this.afterEvents) return true;
    stream.writeEvent(event);
    this.cutNow(stream);
    return false;
  }

  end(): void {}

  private cutNow(stream: FaultedWatchStream): void {
    this.cut = true;
    stream.cut();
  }
}

/** Several stream faults on one watch: each sees the events the ones before it let through. */
export class StreamFaults implements WatchStreamFault {
  constructor(private readonly faults: readonly WatchStreamFault[]) {}

  begin(stream: FaultedWatchStream): void {
    for (const f of this.faults) f.begin(stream);
  }

  admit(event: WatchEvent, stream: FaultedWatchStream): boolean {
    return this.faults.every((f) => f.admit(event, stream));
  }

  end(): void {
    for (const f of this.faults) f.end();
  }
}

/** The faults of one watch, and `onCut` told when they cut its connection (a recorder's close reason). */
export class CutObserved implements WatchStreamFault {
  private told = false;

  constructor(
    private readonly faults: WatchStreamFault,
    private readonly onCut: () => void,
  ) {}

  begin(stream: FaultedWatchStream): void {
    this.faults.begin(this.observed(stream));
  }

  admit(event: WatchEvent, stream: FaultedWatchStream): boolean {
    return this.faults.admit(event, this.observed(stream));
  }

  end(): void {
    this.faults.end();
  }

  private observed(stream: FaultedWatchStream): FaultedWatchStream {
    return {
      get written() {
        return stream.written;
      },
      writeEvent: (e) => stream.writeEvent(e),
      cut: () => {
        if (!this.told) {
          this.told = true;
          this.onCut();
        }
        stream.cut();
      },
    };
  }
}
