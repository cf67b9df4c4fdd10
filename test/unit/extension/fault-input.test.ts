// The Inject Fault command's parameter checks (src/extension/server/fault-input.ts) against the admin
// API's own answers: for each typed text, the message the input box shows is the message
// `POST /debug/listwatch/v1/faults/<name>` answers with 422 for the same value (the empty text of
// an optional parameter is the parameter left out). No upstream counterpart.
import * as assert from 'assert';
import { parameterProblem, parameterValueOf } from '../../../src/extension/server/fault-input';
import { FakeClock } from '../../../src/engine/clock';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { describeFaults, handleFaultRequest } from '../../../src/server/faults';

// [fault, parameter, typed text, the input box's message (undefined: accepted)]
const cases: [string, string, string, string | undefined][] = [
  ['cache-lag', 'seconds', '5', undefined],
  ['cache-lag', 'seconds', '0.25', undefined],
  ['cache-lag', 'seconds', '0', 'seconds: expected a number > 0, got 0'],
  ['cache-lag', 'seconds', '-1', 'seconds: expected a number > 0, got -1'],
  ['cache-lag', 'seconds', 'abc', 'seconds: expected a number > 0, got "abc"'],
  ['cache-lag', 'seconds', '', 'seconds: required: expected a number > 0'],
  ['etcd-unavailable', 'seconds', ' 2 ', undefined],
  ['compact', 'revision', '', undefined],
  ['compact', 'revision', '1.5', 'revision: expected an integer >= 1, got 1.5'],
  ['compact', 'revision', '0', 'revision: expected an integer >= 1, got 0'],
  ['etcd-latency', 'perRequestMs', '0', undefined],
  ['etcd-latency', 'perRequestMs', '-2', 'perRequestMs: expected a number >= 0, got -2'],
  ['terminate-watcher', 'id', '3', undefined],
  ['terminate-watcher', 'id', '-1', 'id: expected an integer >= 0, got -1'],
  ['terminate-watcher', 'id', 'x', 'id: expected an integer >= 0, got "x"'],
  ['terminate-watcher', 'userAgent', 'kubectl/v1.33.1', undefined],
];

describe('Inject Fault parameter checks', () => {
  for (const [name, param, text, message] of cases) {
    it(`${name} ${param}=${JSON.stringify(text)}: ${message ?? 'accepted'}`, async () => {
      const fault = describeFaults().find((f) => f.name === name)!;
      const d = fault.parameters.find((p) => p.name === param)!;
      assert.strictEqual(parameterProblem(fault, d, text), message);
      if (message === undefined) return;
      // The admin API, given the same value with the others valid, answers the same message.
      const body: Record<string, unknown> = { [param]: parameterValueOf(d, text) };
      if (text === '') delete body[param];
      if (param !== 'seconds' && fault.parameters.some((p) => p.name === 'seconds'))
        body.seconds = 1;
      const answer = await handleFaultRequest('POST', name, JSON.stringify(body), {
        resources: [],
        etcd: new MemoryEtcd({ clock: new FakeClock(0) }),
      });
      assert.strictEqual(answer.status, 422);
      assert.strictEqual((answer.body as { message: string }).message, message);
    });
  }
});
