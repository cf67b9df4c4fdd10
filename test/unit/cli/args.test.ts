// Tests for src/cli/args.ts: every subcommand's argv grammar (node:util parseArgs underneath) and
// its usage errors, word for word; a repeatable option given once, twice, with = and apart.
import * as assert from 'assert';
import { parseArgs, type OptionSpec } from '../../../src/cli/args';
import { UsageError } from '../../../src/cli/command';

const specs: OptionSpec[] = [
  { name: 'seed', value: true },
  { name: 'json', value: false },
  { name: 'help', value: false, short: 'h' },
  { name: 'set', value: true, multiple: true, valueName: 'name=value' },
  { name: 'crd', value: true, multiple: true },
];

interface Parsed {
  options?: Array<[string, string | true]>;
  repeated?: Array<[string, string[]]>;
  positionals?: string[];
}

describe('listwatch argv (cli/args.ts)', () => {
  const ok: Array<{ name: string; argv: string[]; want: Parsed }> = [
    { name: 'nothing', argv: [], want: {} },
    { name: 'a value apart', argv: ['--seed', '5'], want: { options: [['seed', '5']] } },
    { name: 'a value after =', argv: ['--seed=5'], want: { options: [['seed', '5']] } },
    { name: 'an empty value after =', argv: ['--seed='], want: { options: [['seed', '']] } },
    { name: 'a value holding =', argv: ['--seed=a=b'], want: { options: [['seed', 'a=b']] } },
    {
      name: 'a value that starts with a dash',
      argv: ['--seed', '-x'],
      want: { options: [['seed', '-x']] },
    },
    { name: 'a value that is --', argv: ['--seed', '--'], want: { options: [['seed', '--']] } },
    { name: 'a flag', argv: ['--json'], want: { options: [['json', true]] } },
    { name: 'a flag by its letter', argv: ['-h'], want: { options: [['help', true]] } },
    {
      name: 'options in argv order',
      argv: ['--json', 'a', '--seed', '1', 'b'],
      want: {
        options: [
          ['json', true],
          ['seed', '1'],
        ],
        positionals: ['a', 'b'],
      },
    },
    {
      name: 'a lone - is stdin',
      argv: ['-', '--json'],
      want: { options: [['json', true]], positionals: ['-'] },
    },
    {
      name: '-- ends the options',
      argv: ['a', '--', '--json', '-h', '--seed=1'],
      want: { positionals: ['a', '--json', '-h', '--seed=1'] },
    },
    {
      name: 'a repeatable option once, apart',
      argv: ['--set', 'a=1'],
      want: { repeated: [['set', ['a=1']]] },
    },
    {
      name: 'a repeatable option once, after =',
      argv: ['--set=a=1'],
      want: { repeated: [['set', ['a=1']]] },
    },
    {
      name: 'a repeatable option twice, apart',
      argv: ['--set', 'a=1', '--set', 'b=2'],
      want: { repeated: [['set', ['a=1', 'b=2']]] },
    },
    {
      name: 'a repeatable option twice, after =',
      argv: ['--set=a=1', '--set=b=2'],
      want: { repeated: [['set', ['a=1', 'b=2']]] },
    },
    {
      name: 'a repeatable option twice, mixed, among others',
      argv: ['--set=a=1', 'x', '--json', '--set', 'a=2', '--crd', 'c.yaml'],
      want: {
        options: [['json', true]],
        repeated: [
          ['set', ['a=1', 'a=2']],
          ['crd', ['c.yaml']],
        ],
        positionals: ['x'],
      },
    },
    {
      name: 'a repeatable option after --',
      argv: ['--', '--set', 'a=1'],
      want: { positionals: ['--set', 'a=1'] },
    },
  ];
  for (const c of ok) {
    it(`parses ${c.name}`, () => {
      const got = parseArgs(c.argv, specs);
      assert.deepStrictEqual(
        {
          options: [...got.options],
          repeated: [...got.repeated],
          positionals: got.positionals,
        },
        { options: [], repeated: [], positionals: [], ...c.want },
        c.name,
      );
    });
  }

  const usage: Array<{ name: string; argv: string[]; message: string }> = [
    { name: 'an unknown option', argv: ['--sed', '1'], message: 'unknown option "--sed"' },
    { name: 'an unknown option with =', argv: ['--sed=1'], message: 'unknown option "--sed"' },
    { name: 'an unknown letter', argv: ['-x'], message: 'unknown option "-x"' },
    { name: 'letters run together', argv: ['-hx'], message: 'unknown option "-hx"' },
    { name: 'a negative number', argv: ['-5'], message: 'unknown option "-5"' },
    { name: 'a long name with one dash', argv: ['-json'], message: 'unknown option "-json"' },
    { name: 'a letter with two dashes', argv: ['--h'], message: 'unknown option "--h"' },
    { name: 'no name before =', argv: ['--=x'], message: 'unknown option "--"' },
    {
      name: 'an option twice',
      argv: ['--seed', '1', '--seed=2'],
      message: 'option --seed given more than once',
    },
    { name: 'a flag twice', argv: ['--help', '-h'], message: 'option --help given more than once' },
    {
      name: 'a flag with a value',
      argv: ['--json=yes'],
      message: 'option --json takes no value (got "--json=yes")',
    },
    {
      name: 'a letter with a value',
      argv: ['-h=1'],
      message: 'option --help takes no value (got "-h=1")',
    },
    { name: 'a missing value', argv: ['a', '--seed'], message: 'option --seed needs a value' },
    {
      name: "a repeatable option's missing value",
      argv: ['--set', 'a=1', '--set'],
      message: 'option --set needs a value name=value',
    },
    { name: 'a missing value, unnamed', argv: ['--crd'], message: 'option --crd needs a value' },
    {
      name: 'the first error in argv order',
      argv: ['--seed', '1', '--bogus', '--seed', '2'],
      message: 'unknown option "--bogus"',
    },
  ];
  for (const c of usage) {
    it(`refuses ${c.name}`, () => {
      assert.throws(
        () => parseArgs(c.argv, specs),
        (e: unknown) => e instanceof UsageError && e.message === c.message,
        c.name,
      );
    });
  }
});
