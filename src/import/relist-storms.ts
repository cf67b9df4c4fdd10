// No upstream counterpart: relist storms in an import, of two kinds. A client storm: one user
// agent relisting again and again (each relist within clientStormGapMs of its previous one, at
// least clientStormRelists of them). A herd: many clients relisting at once (relists of any client
// each within herdGapMs of the previous, from at least herdClients distinct clients), as after an
// apiserver restart or a compaction that expires every watch.
import type { RelistStorm } from '../run/import-report';
import { Distribution } from './distribution';

export const clientStormGapMs = 60_000;
export const clientStormRelists = 3;
export const herdGapMs = 10_000;
export const herdClients = 5;
/** Storms kept; the rest are counted (stormsDropped). */
export const maxStorms = 200;

export const stormRule = `a client storm is ${clientStormRelists} or more relists by one user agent, each within ${clientStormGapMs / 1000} s of its previous one; a herd is relists by ${herdClients} or more distinct clients (user agent and user), each within ${herdGapMs / 1000} s of the previous relist of any client`;

interface Run {
  from: number;
  to: number;
  relists: number;
  clients: Set<string>;
  userAgents: Set<string>;
  intervals: Distribution;
}

function newRun(at: number): Run {
  return {
    from: at,
    to: at,
    relists: 0,
    clients: new Set(),
    userAgents: new Set(),
    intervals: new Distribution(),
  };
}

export class RelistStormDetector {
  private readonly perAgent = new Map<string, Run>();
  private herd: Run | undefined;
  private readonly storms: RelistStorm[] = [];
  dropped = 0;

  add(at: number, userAgent: string, client: string): void {
    const run = this.perAgent.get(userAgent);
    if (run && at - run.to <= clientStormGapMs) this.extend(run, at, userAgent, client);
    else {
      if (run) this.endClient(userAgent, run);
      const fresh = newRun(at);
      this.extend(fresh, at, userAgent, client);
      this.perAgent.set(userAgent, fresh);
    }
    if (this.herd && at - this.herd.to <= herdGapMs) this.extend(this.herd, at, userAgent, client);
    else {
      if (this.herd) this.endHerd(this.herd);
      this.herd = newRun(at);
      this.extend(this.herd, at, userAgent, client);
    }
  }

  finish(): { storms: RelistStorm[]; dropped: number } {
    for (const [agent, run] of this.perAgent) this.endClient(agent, run);
    this.perAgent.clear();
    if (this.herd) this.endHerd(this.herd);
    this.herd = undefined;
    return {
      storms: this.storms.sort((a, b) => a.from - b.from || a.kind.localeCompare(b.kind)),
      dropped: this.dropped,
    };
  }

  private extend(run: Run, at: number, userAgent: string, client: string): void {
    if (run.relists > 0) run.intervals.add(Math.abs(at - run.to) / 1000);
    run.relists++;
    run.to = Math.max(run.to, at);
    run.from = Math.min(run.from, at);
    run.clients.add(client);
    if (run.userAgents.size < 20) run.userAgents.add(userAgent);
  }

  private endClient(userAgent: string, run: Run): void {
    if (run.relists >= clientStormRelists) this.push(run, 'client', userAgent, clientStormGapMs);
  }

  private endHerd(run: Run): void {
    if (run.clients.size >= herdClients) this.push(run, 'herd', '*', herdGapMs);
  }

  private push(run: Run, kind: RelistStorm['kind'], userAgent: string, gapMs: number): void {
    if (this.storms.length >= maxStorms) {
      this.dropped++;
      return;
    }
    this.storms.push({
      kind,
      userAgent,
      ...(kind === 'herd' ? { userAgents: [...run.userAgents] } : {}),
      clients: run.clients.size,
      relists: run.relists,
      from: run.from,
      to: run.to,
      medianIntervalSeconds: run.intervals.summary((v) => Math.round(v * 1000) / 1000).median,
      windowSeconds: gapMs / 1000,
    });
  }
}
