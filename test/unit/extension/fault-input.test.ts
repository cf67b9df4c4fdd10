// The Inject Fault command's parameter checks (src/extension/server/fault-input.ts) against the admin
// API's own answers: for each typed text, the message the input box shows is the message
// `POST /debug/listwatch/v1/faults/<name>` answers with 422 for the same value (the empty text of
// an optional parameter is the parameter left out). And what it offers: on a real etcd only the
// faults that apply there; terminate-watcher asks for exactly one of id and userAgent. No upstream
// counterpart.
import * as assert from 'assert';
import {
  askFault,
  parseMatcherText,
  parameterProblem,
  parameterValueOf,
} from '../../../src/extension/server/fault-input';
import type { ServerPrompts } from '../../../src/extension/server/server-prompts';
import { FakeClock } from '../../../src/engine/clock';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { describeFaults, handleFaultRequest } from '../../../src/server/faults';
import { ActiveFaults } from '../../../src/server/active-faults';

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
      const clock = new FakeClock(0);
      const answer = await handleFaultRequest('POST', name, JSON.stringify(body), {
        resources: [],
        etcd: new MemoryEtcd({ clock }),
        active: new ActiveFaults(clock),
      });
      assert.strictEqual(answer.status, 422);
      assert.strictEqual((answer.body as { message: string }).message, message);
    });
  }
});

/** Prompts that record what was asked and answer from `answers` (a pick by label, an input by text). */
function recordingPrompts(answers: Record<string, string>) {
  const asked: { title: string; labels?: string[]; prompt?: string; problemIfEmpty?: string }[] =
    [];
  const param = (title: string) => /: (\w+) \(\d+\/\d+\)$/.exec(title)?.[1] ?? 'fault';
  const prompts: ServerPrompts = {
    pick: (items, options) => {
      asked.push({ title: options.title, labels: items.map((i) => i.label) });
      return Promise.resolve(items.find((i) => i.label === answers[param(options.title)]));
    },
    input: async (options) => {
      const problem = await options.validateInput?.('');
      asked.push({
        title: options.title,
        prompt: options.prompt,
        ...(typeof problem === 'string' ? { problemIfEmpty: problem } : {}),
      });
      return answers[param(options.title)] ?? '';
    },
    openFiles: () => Promise.resolve(undefined),
  };
  return { prompts, asked };
}

describe('Inject Fault offers what applies', () => {
  const inMemoryOnly = ['etcd-latency', 'etcd-unavailable', 'rangestream'];
  for (const etcd of ['memory', 'real'] as const) {
    it(`on ${etcd === 'memory' ? 'the in-memory etcd: every fault' : 'a real etcd: not the in-memory etcd’s faults'}`, async () => {
      const { prompts, asked } = recordingPrompts({});
      await askFault(prompts, ['pods'], '', etcd);
      const every = describeFaults().map((f) => f.name);
      assert.deepStrictEqual(
        asked[0].labels,
        etcd === 'memory' ? every : every.filter((n) => !inMemoryOnly.includes(n)),
      );
      // And the admin API refuses exactly those on a real etcd (409).
      for (const f of describeFaults())
        assert.strictEqual(!!f.memoryEtcdOnly, inMemoryOnly.includes(f.name), f.name);
    });
  }

  it('terminate-watcher: an id given, no user agent is asked', async () => {
    const { prompts, asked } = recordingPrompts({
      fault: 'terminate-watcher',
      id: '3',
      resource: 'pods',
      when: 'At once',
    });
    const choice = await askFault(prompts, ['pods'], '');
    assert.deepStrictEqual(choice, {
      name: 'terminate-watcher',
      params: { id: 3, resource: 'pods' },
    });
    assert.deepStrictEqual(
      asked.map((a) => a.title),
      [
        'Inject Fault (1/2)',
        'Inject terminate-watcher: id (1/3)',
        'Inject terminate-watcher: resource (3/3)',
        'Inject terminate-watcher: when (2/2)',
      ],
    );
    assert.match(
      asked[1].prompt ?? '',
      /Exactly one of id, userAgent: empty to give userAgent instead\./,
    );
  });

  it('terminate-watcher: no id, then the user agent is required', async () => {
    const { prompts, asked } = recordingPrompts({
      fault: 'terminate-watcher',
      userAgent: 'kubectl/v1.33.1',
      resource: '(every resource)',
      when: 'At once',
    });
    const choice = await askFault(prompts, ['pods'], '');
    assert.deepStrictEqual(choice, {
      name: 'terminate-watcher',
      params: { userAgent: 'kubectl/v1.33.1' },
    });
    const ua = asked.find((a) => a.title === 'Inject terminate-watcher: userAgent (2/3)');
    assert.ok(ua, JSON.stringify(asked));
    assert.strictEqual(ua.problemIfEmpty, 'id, userAgent: exactly one of them is required');
    assert.match(ua.prompt ?? '', /Required: no id was given \(exactly one of id, userAgent\)\./);
  });
});

describe('Inject Fault asks which requests and when', () => {
  it('a request fault: its parameter, the matchers, the trigger; the admin API body has them', async () => {
    const { prompts, asked } = recordingPrompts({
      fault: 'http-error',
      code: '429',
      match: 'verb=list resource=pods watchList=false',
      when: 'The nth matching request',
      nth: '2',
    });
    const choice = await askFault(prompts, ['pods'], '');
    assert.deepStrictEqual(choice, {
      name: 'http-error',
      params: {
        code: 429,
        match: { verb: 'list', resource: 'pods', watchList: false },
        trigger: { nth: 2 },
      },
    });
    assert.deepStrictEqual(
      asked.map((a) => [a.title, a.labels]),
      [
        ['Inject Fault (1/2)', describeFaults().map((f) => f.name)],
        ['Inject http-error: code (1/1)', ['429', '500', '503', '504']],
        ['Inject http-error: match (1/2)', undefined],
        [
          'Inject http-error: when (2/2)',
          ['At once', 'The nth matching request', 'The next matching requests', 'After seconds'],
        ],
        ['Inject http-error: nth (2/2)', undefined],
      ],
    );
  });

  it('a server fault: no matchers asked, and only At once or After seconds', async () => {
    const { prompts, asked } = recordingPrompts({
      fault: 'restart',
      resource: 'pods',
      when: 'After seconds',
      afterSeconds: '30',
    });
    const choice = await askFault(prompts, ['pods'], '');
    assert.deepStrictEqual(choice, {
      name: 'restart',
      params: { resource: 'pods', trigger: { afterSeconds: 30 } },
    });
    assert.deepStrictEqual(asked.find((a) => a.title.includes('when'))?.labels, [
      'At once',
      'After seconds',
    ]);
  });

  const texts: [string, string | undefined][] = [
    ['', undefined],
    ['verb=watch userAgent=kubectl', undefined],
    [
      'verb',
      'verb: expected name=value (verb, resource, namespace, userAgent, watchList, replica)',
    ],
    [
      'agent=x',
      'agent: unknown matcher; expected one of verb, resource, namespace, userAgent, watchList, replica',
    ],
    ['watchList=yes', 'watchList: expected true or false, got "yes"'],
  ];
  for (const [text, problem] of texts)
    it(`matchers ${JSON.stringify(text)}: ${problem ?? 'accepted'}`, () => {
      const m = parseMatcherText(text);
      assert.strictEqual('problem' in m ? m.problem : undefined, problem);
    });
});
