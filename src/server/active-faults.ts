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
  /** blackhole: matching requests answered 429 because maxHeld were held already. */
  refused?: number;
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
  /** blackhole: matching requests answered 429 because the server held its most already. */
  refused?: number;
}

// kube-apiserver's --max-requests-inflight and --max-mutating-requests-inflight defaults
// (k8s.io/apiserver pkg/server/options/server_run_options.go): the most requests it has in flight
// at once; the next is answered 429 (pkg/server/filters/maxinflight.go).
const defaultMaxRequestsInFlight = 400;
const defaultMaxMutatingRequestsInFlight = 200;

/**
 * How many requests blackhole faults hold at once: as many as kube-apiserver lets be in flight,
 * and never more than half the connection cap, so that /healthz and the admin API, which no fault
 * reaches, keep connections of their own. Past it a matching request is answered as the
 * max-in-flight filter answers (429, Retry-After 1): a server cannot leave every request unanswered.
 */
export function maxHeldRequestsFor(maxConnections: number): number {
  return Math.min(
    defaultMaxRequestsInFlight + defaultMaxMutatingRequestsInFlight,
    Math.floor(maxConnections / 2),
  );
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
  /** Requests every blackhole holds now. */
  private heldNow = 0;

  constructor(
    private readonly clock: Clock,
    /** The most requests blackhole faults hold at once (maxHeldRequestsFor). */
    private readonly maxHeld = Infinity,
  ) {}

  /** Requests every blackhole holds now. */
  get heldRequests(): number {
    return this.heldNow;
  }

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

  /**
   * Holds `res` open for blackhole `f` until its client goes or `f` is cleared; false (and counted
   * on `f`) when maxHeld requests are held already: the caller answers it.
   */
  hold(f: ActiveFault, res: ServerResponse): boolean {
    const held = (f.held ??= new Set());
    if (this.heldNow >= this.maxHeld) {
      f.refused = (f.refused ?? 0) + 1;
      return false;
    }
    held.add(res);
    this.heldNow++;
    res.once('close', () => {
      held.delete(res);
      this.heldNow--;
      if (held.size === 0 && f.state.phase() === TriggerPhase.Spent) this.remove(f);
    });
    return true;
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
      ...(f.refused ? { refused: f.refused } : {}),
    };
  }

  private remove(f: ActiveFault): void {
    const i = this.faults.indexOf(f);
    if (i < 0) return;
    this.faults.splice(i, 1);
    if (f.timer === undefined) this.requestFaults--;
  }
}
