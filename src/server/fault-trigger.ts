// No upstream counterpart: when a fault acts. At once (no trigger), on the nth matching request
// from now, on the next `count` matching requests, and from `afterSeconds` on the server's clock
// (combined with nth or count, those count from then). One small state machine per fault.
import type { Clock } from '../engine';

export interface FaultTrigger {
  /** Only the nth matching request (1: the next one), then the fault is spent. */
  nth?: number;
  /** The next `count` matching requests, then the fault is spent. */
  count?: number;
  /** Armed this many seconds from now (the server's clock). */
  afterSeconds?: number;
}

/** The triggers, as the admin API lists them (the CLI's flags are their kebab-case names). */
export const triggerFields: readonly {
  name: keyof FaultTrigger;
  type: 'integer' | 'number';
  minimum: number;
  description: string;
}[] = [
  { name: 'nth', type: 'integer', minimum: 1, description: 'Only the nth matching request.' },
  {
    name: 'count',
    type: 'integer',
    minimum: 1,
    description: 'The next count matching requests, then spent.',
  },
  {
    name: 'afterSeconds',
    type: 'number',
    minimum: 0,
    description: "Armed after this many seconds on the server's clock.",
  },
];

/** The trigger of a JSON value, or what is wrong with it (`field` names the trigger). */
export function parseFaultTrigger(
  v: unknown,
): { trigger: FaultTrigger } | { field?: string; message: string } {
  if (v === undefined || v === null) return { trigger: {} };
  if (typeof v !== 'object' || Array.isArray(v))
    return {
      message: `expected an object of triggers (${triggerFields.map((f) => f.name).join(', ')})`,
    };
  const trigger: FaultTrigger = {};
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    const field = triggerFields.find((f) => f.name === k);
    if (!field)
      return {
        field: k,
        message: `unknown trigger; expected one of ${triggerFields.map((f) => f.name).join(', ')}`,
      };
    const kind = field.type === 'integer' ? 'an integer' : 'a number';
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      (field.type === 'integer' && !Number.isInteger(value)) ||
      value < field.minimum
    )
      return {
        field: k,
        message: `expected ${kind} >= ${field.minimum}, got ${JSON.stringify(value)}`,
      };
    (trigger as Record<string, number>)[k] = value;
  }
  if (trigger.nth !== undefined && trigger.count !== undefined)
    return { field: 'count', message: 'nth and count exclude each other; give one of them' };
  return { trigger };
}

/** Where a fault is in its life. */
export const enum TriggerPhase {
  /** afterSeconds has not passed yet. */
  Pending = 'pending',
  Armed = 'armed',
  /** nth or count reached: it hits nothing more. */
  Spent = 'spent',
}

/** One fault's trigger as it runs: the matching requests it has seen and those it hit. */
export class TriggerState {
  /** The clock time from which it is armed. */
  readonly armedAt: number;
  /** Matching requests seen while armed. */
  seen = 0;
  /** Requests the fault was applied to. */
  hits = 0;
  private spent = false;

  constructor(
    readonly trigger: FaultTrigger,
    private readonly clock: Pick<Clock, 'now'>,
  ) {
    this.armedAt = clock.now() + (trigger.afterSeconds ?? 0) * 1000;
  }

  phase(): TriggerPhase {
    if (this.spent) return TriggerPhase.Spent;
    return this.clock.now() < this.armedAt ? TriggerPhase.Pending : TriggerPhase.Armed;
  }

  /** A matching request arrived: whether the fault hits it (the only place hits and spent change). */
  admit(): boolean {
    if (this.phase() !== TriggerPhase.Armed) return false;
    this.seen++;
    const { nth, count } = this.trigger;
    if (nth !== undefined && this.seen !== nth) return false;
    this.hits++;
    if (nth !== undefined || (count !== undefined && this.hits >= count)) this.spent = true;
    return true;
  }

  /** A fault applied once (a resource fault when its time came) is spent. */
  markSpent(): void {
    this.spent = true;
  }
}
