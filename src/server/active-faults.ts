// No upstream counterpart: the faults in force on a running server, each with its id, parameters,
// matchers and trigger (`GET /debug/listwatch/v1/faults/active`), until spent or cleared. A request
// fault is looked up by the filter for every request (hit); a server fault with afterSeconds waits
// here on the server's clock until its time comes.
import type { ServerResponse } from 'node:http';
import type { Clock, Timer } from '../engine';
import { matchesRequest, type FaultMatcher, type MatchedRequest } from './fault-matcher';
import { TriggerPhase, TriggerState, type FaultTrigger } from './fault-trigger';

/** One fault in force. */
export interface ActiveFault {
  readonly id: number;
  readonly name: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly match: FaultMatcher;
  readonly trigger: FaultTrigger;
  readonly state: TriggerState;
  /** Which requests it can hit: any, watches only, WatchList requests only. */
  readonly acts: 'request' | 'watch' | 'watchList';
  /** A server fault waiting for afterSeconds: its timer. */
  timer?: Timer;
  /** blackhole: the responses held open, until their client goes or the fault is cleared. */
  held?: Set<ServerResponse>;
}

/** An active fault as the admin API lists it. */
export interface ActiveFaultJSON {
  id: number;
  name: string;
  parameters: Record<string, unknown>;
  match: FaultMatcher;
  trigger: FaultTrigger;
  phase: TriggerPhase;
  /** Requests the fault was applied to (a server fault: 1 once applied). */
  hits: number;
  /** RFC 3339: when it is (or was) armed. */
  armedAt: string;
  /** blackhole: requests held open now. */
  held?: number;
}

/** A watch fault sees watches only, omit-end-bookmark WatchList requests only. */
function actsOn(acts: ActiveFault['acts'], r: MatchedRequest): boolean {
  if (acts === 'request') return true;
  return r.verb === 'watch' && (acts === 'watch' || r.watchList);
}

export class ActiveFaults {
  private nextId = 1;
  private faults: ActiveFault[] = [];
  /** Request faults only: the filter's quick "nothing to do". */
  private requestFaults = 0;

  constructor(private readonly clock: Clock) {}

  /** Whether any request fault is in force (the filter does nothing otherwise). */
  get hasRequestFaults(): boolean {
    return this.requestFaults > 0;
  }

  /** An id for a fault applied at once (not kept: it is spent as it is applied). */
  newId(): number {
    return this.nextId++;
  }

  /** A fault that acts on requests, from now on. */
  addRequestFault(
    name: string,
    acts: ActiveFault['acts'],
    parameters: Record<string, unknown>,
    match: FaultMatcher,
    trigger: FaultTrigger,
  ): ActiveFault {
    const f: ActiveFault = {
      id: this.newId(),
      name,
      acts,
      parameters,
      match,
      trigger,
      state: new TriggerState(trigger, this.clock),
    };
    this.faults.push(f);
    this.requestFaults++;
    return f;
  }

  /** A server fault applied `trigger.afterSeconds` from now by `apply`. */
  addScheduled(
    name: string,
    parameters: Record<string, unknown>,
    match: FaultMatcher,
    trigger: FaultTrigger,
    apply: () => void,
  ): ActiveFault {
    const f: ActiveFault = {
      id: this.newId(),
      name,
      acts: 'request',
      parameters,
      match,
      trigger,
      state: new TriggerState(trigger, this.clock),
    };
    f.timer = this.clock.afterFunc((trigger.afterSeconds ?? 0) * 1000, () => {
      f.state.admit();
      f.state.markSpent();
      this.remove(f);
      apply();
    });
    this.faults.push(f);
    return f;
  }

  /** The request faults that hit `r`, in id order (each counted as a hit). */
  hit(r: MatchedRequest): ActiveFault[] | undefined {
    if (this.requestFaults === 0) return undefined;
    let hits: ActiveFault[] | undefined;
    for (const f of this.faults) {
      if (f.timer !== undefined || !actsOn(f.acts, r) || !matchesRequest(f.match, r)) continue;
      if (f.state.admit()) (hits ??= []).push(f);
    }
    // Spent ones leave the list after the loop (a blackhole once it holds nothing more).
    for (const f of hits ?? [])
      if (f.state.phase() === TriggerPhase.Spent && f.name !== 'blackhole') this.remove(f);
    return hits;
  }

  /** Holds `res` open for blackhole `f` until its client goes or `f` is cleared. */
  hold(f: ActiveFault, res: ServerResponse): void {
    const held = (f.held ??= new Set());
    held.add(res);
    res.once('close', () => {
      held.delete(res);
      if (held.size === 0 && f.state.phase() === TriggerPhase.Spent) this.remove(f);
    });
  }

  list(): ActiveFaultJSON[] {
    return this.faults.map((f) => this.toJSON(f));
  }

  get(id: number): ActiveFault | undefined {
    return this.faults.find((f) => f.id === id);
  }

  /** Clears one fault (or every one): its timer stops, its held connections close. */
  clear(id: number | 'all'): ActiveFaultJSON[] | undefined {
    const gone = id === 'all' ? [...this.faults] : this.faults.filter((f) => f.id === id);
    if (id !== 'all' && gone.length === 0) return undefined;
    const out = gone.map((f) => this.toJSON(f));
    for (const f of gone) {
      this.remove(f);
      f.timer?.stop();
      f.state.markSpent();
      for (const res of f.held ?? []) res.destroy();
    }
    return out;
  }

  toJSON(f: ActiveFault): ActiveFaultJSON {
    return {
      id: f.id,
      name: f.name,
      parameters: { ...f.parameters },
      match: { ...f.match },
      trigger: { ...f.trigger },
      phase: f.state.phase(),
      hits: f.state.hits,
      armedAt: new Date(f.state.armedAt).toISOString(),
      ...(f.held ? { held: f.held.size } : {}),
    };
  }

  private remove(f: ActiveFault): void {
    const i = this.faults.indexOf(f);
    if (i < 0) return;
    this.faults.splice(i, 1);
    if (f.timer === undefined) this.requestFaults--;
  }
}
