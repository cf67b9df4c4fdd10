// Tests for src/cli/import-replay-options.ts: the replay flags of `listwatch import` and the
// side-by-side table of a baseline and its what-if.
import * as assert from 'assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from '../../../src/cli/args';
import { UsageError, type CliIo } from '../../../src/cli/command';
import {
  importReplayOptionSpecs,
  parseImportReplayFlags,
  runImportReplay,
  whatIfTracePath,
} from '../../../src/cli/import-replay-options';
import type { ImportedRequest } from '../../../src/run/imported-request';

function flags(argv: string[]): ReturnType<typeof parseImportReplayFlags> {
  return parseImportReplayFlags(parseArgs(argv, importReplayOptionSpecs).options);
}

describe('listwatch import: replay flags', () => {
  const ok: Array<{ argv: string[]; want: unknown }> = [
    { argv: [], want: undefined },
    {
      argv: ['--trace', 'out.jsonl'],
      want: {
        trace: 'out.jsonl',
        baseline: { profile: '1.36', seed: 1 },
        whatIf: undefined,
        compare: false,
      },
    },
    {
      argv: [
        '--trace=o.jsonl',
        '--profile',
        '1.37',
        '--what-if',
        'watchCacheSize=100,watchList=true',
        '--compare',
        '--objects',
        'pods=5000',
      ],
      want: {
        trace: 'o.jsonl',
        baseline: { profile: '1.37', seed: 1, objects: { pods: 5000 } },
        whatIf: {
          profile: '1.37',
          seed: 1,
          objects: { pods: 5000 },
          watchCacheSize: 100,
          watchList: true,
          whatIf: true,
        },
        compare: true,
      },
    },
  ];
  for (const c of ok)
    it(`accepts ${JSON.stringify(c.argv)}`, () => assert.deepStrictEqual(flags(c.argv), c.want));

  const bad: Array<{ argv: string[]; message: string }> = [
    { argv: ['--compare'], message: '--compare needs --what-if (what to compare with)' },
    { argv: ['--seed', '3'], message: '--seed needs --trace, --what-if or --compare' },
    {
      argv: ['--trace', 'x', '--profile', '1.35'],
      message: '--profile expects 1.36 or 1.37, got "1.35"',
    },
    {
      argv: ['--what-if', 'cache=1'],
      message:
        '--what-if: unknown parameter "cache"; expected profile, watchCacheSize or watchList',
    },
    {
      argv: ['--what-if', 'watchList=yes'],
      message: '--what-if watchList expects true or false, got "yes"',
    },
    {
      argv: ['--what-if', 'watchCacheSize'],
      message: '--what-if expects key=value pairs, got "watchCacheSize"',
    },
  ];
  for (const c of bad)
    it(`refuses ${JSON.stringify(c.argv)}`, () =>
      assert.throws(
        () => flags(c.argv),
        (e: Error) => e instanceof UsageError && e.message === c.message,
      ));

  it('writes both traces and prints the side-by-side table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    const trace = join(dir, 'out.jsonl');
    const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);
    const requests: ImportedRequest[] = [
      {
        id: 'a1',
        sources: [{ file: 'audit.log', line: 1, format: 'audit' }],
        verb: 'list',
        requestURI: '/api/v1/pods?labelSelector=app%3Dbackup',
        userAgent: 'velero/v1.14',
        receivedAt: t0,
        completedAt: t0 + 30,
        startInFile: true,
        endInFile: true,
        code: 200,
      },
    ];
    let out = '';
    const io: CliIo = {
      out: (t) => (out += t),
      err: (t) => (out += t),
      stdinLines: async function* () {},
    };
    const f = flags(['--trace', trace, '--what-if', 'profile=1.37', '--compare']);
    assert.ok(f);
    await runImportReplay(requests, ['audit.log'], f, io);
    assert.strictEqual(whatIfTracePath(trace), join(dir, 'out.what-if.jsonl'));
    const header = (p: string): { scenario: string; profile: string } =>
      JSON.parse(readFileSync(p, 'utf8').split('\n')[0]) as { scenario: string; profile: string };
    assert.deepStrictEqual(
      [header(trace).profile, header(whatIfTracePath(trace)).profile],
      ['1.36', '1.37'],
    );
    assert.match(out, /Baseline \(1\.36\) vs what-if \(1\.37\)/);
    assert.match(out, /velero\/v1\.14 +LISTs +1 +1 +=/);
    assert.match(out, /Replay \(1\.36\): 1 request re-issued and compared with the log: /);
  });
});
