// No upstream counterpart: folds the model's `answers` (every response a live server wrote, by
// User-Agent and connection: codes and body bytes) and the requests each request fault hit, so
// the clients report (clients-report.ts) counts a 429 that never reached a handler.
import type { ScenarioInput } from '../trace/trace-format';
import type { ClientAnswers, FaultHit } from '../run-model';

type Input<A extends ScenarioInput['action']> = Extract<ScenarioInput, { action: A }>;

/** Request statuses kept per client (beyond them only the counts grow). */
const statusesKept = 5000;

/** Hits kept per fault (a fault matching every request of a long run would grow without end). */
export const hitsKept = 1000;

export class AnswersFold {
  private readonly byClient = new Map<string, ClientAnswers>();

  response(at: number, input: Input<'response'>): void {
    const key = `${input.client}\u0000${input.connection ?? ''}`;
    let a = this.byClient.get(key);
    if (!a) {
      a = {
        client: input.client,
        ...(input.connection !== undefined ? { connection: input.connection } : {}),
        firstAt: at,
        byCode: {},
        bytes: 0,
        statusOf: {},
      };
      this.byClient.set(key, a);
    }
    const code = String(input.status);
    a.byCode[code] = (a.byCode[code] ?? 0) + 1;
    a.bytes += input.bytes;
    if (Object.keys(a.statusOf).length < statusesKept) a.statusOf[input.requestId] = input.status;
  }

  /** The answers so far (copies: what is folded later does not change them). */
  finish(): ClientAnswers[] {
    return [...this.byClient.values()].map((a) => ({
      ...a,
      byCode: { ...a.byCode },
      statusOf: { ...a.statusOf },
    }));
  }
}

/** A fault-hit input as the hit it records. */
export function faultHitOf(at: number, input: Input<'fault-hit'>): FaultHit {
  return {
    at,
    requestId: input.requestId,
    client: input.client,
    ...(input.connection !== undefined ? { connection: input.connection } : {}),
    verb: input.verb,
    request: input.request,
  };
}
