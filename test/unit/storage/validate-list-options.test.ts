// Tests for src/engine/storage/validate-list-options.ts: TestValidateListOptions (reference §1.3) and the validation rows of RunTestList (§3.4).
import * as assert from 'assert';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { StatusError, isBadRequest } from '../../../src/engine/storage/errors';
import { newListOptions, type ListOptions } from '../../../src/engine/storage/list-options';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import { validateListOptions } from '../../../src/engine/storage/validate-list-options';
import { APIObjectVersioner } from '../../../src/engine/storage/versioner';

// encodeContinueOrDie("meta.k8s.io/v1", rv, "continue"), exact bytes from §2.2.
const enc100 = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6ImNvbnRpbnVlIn0';
const enc0 = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJjb250aW51ZSJ9';
const encMinus1 = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiY29udGludWUifQ';

interface Opts {
  rv?: string;
  rvm?: string;
  recursive?: boolean;
  limit?: number;
  continue?: string;
}

function opts(o: Opts): ListOptions {
  return newListOptions({
    resourceVersion: o.rv ?? '',
    resourceVersionMatch: o.rvm ?? '',
    recursive: o.recursive ?? false,
    predicate: new SelectionPredicate({ limit: o.limit ?? 0, continue: o.continue ?? '' }),
  });
}

const versioner = new APIObjectVersioner();

describe('validateListOptions (TestValidateListOptions, keyPrefix "")', () => {
  const cases: { name: string; opts: Opts; err?: string; rev?: bigint; key?: string }[] = [
    {
      name: 'specifying resource version when using continue',
      opts: { recursive: true, rv: '200', continue: enc100 },
      err: 'specifying resource version is not allowed when using continue',
    },
    { name: 'invalid resource version', opts: { rv: 'invalid' }, err: 'invalid resource version' },
    {
      name: 'unknown ResourceVersionMatch value',
      opts: { rv: '200', rvm: 'unknown' },
      err: 'unknown ResourceVersionMatch value',
    },
    {
      name: 'use continueRV',
      opts: { rv: '0', recursive: true, continue: enc100 },
      rev: 100n,
      key: 'continue',
    },
    {
      name: 'use continueRV with empty rv',
      opts: { rv: '', recursive: true, continue: enc100 },
      rev: 100n,
      key: 'continue',
    },
    {
      name: 'continueRV = 0',
      opts: { rv: '', recursive: true, continue: enc0 },
      err: 'invalid continue token',
    },
    {
      name: 'continueRV < 0',
      opts: { rv: '', recursive: true, continue: encMinus1 },
      rev: 0n,
      key: 'continue',
    },
    { name: 'default', opts: {}, rev: 0n, key: '' },
    {
      name: 'rev resolve to 0 if ResourceVersionMatchNotOlderThan',
      opts: { rv: '200', rvm: 'NotOlderThan' },
      rev: 0n,
      key: '',
    },
    {
      name: 'specified rev if ResourceVersionMatchExact',
      opts: { rv: '200', rvm: 'Exact' },
      rev: 200n,
      key: '',
    },
    { name: 'rev resolve to 0 if not recursive', opts: { rv: '200', limit: 1 }, rev: 0n, key: '' },
    {
      name: 'rev resolve to 0 if limit unspecified',
      opts: { rv: '200', recursive: true },
      rev: 0n,
      key: '',
    },
    {
      name: 'specified rev if recursive with limit',
      opts: { rv: '200', recursive: true, limit: 1 },
      rev: 200n,
      key: '',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      if (c.err !== undefined) {
        assert.throws(
          () => validateListOptions('', versioner, opts(c.opts)),
          (e: Error) => e.message.includes(c.err as string),
          c.name,
        );
        return;
      }
      assert.deepStrictEqual(
        validateListOptions('', versioner, opts(c.opts)),
        { withRev: c.rev, continueKey: c.key },
        c.name,
      );
    });
  }
});

describe('validateListOptions: exact messages, error kinds and order of checks', () => {
  const prefix = '/pods/';
  const rows: { name: string; opts: Opts; status?: string; plain?: string }[] = [
    {
      name: 'rejects invalid resource version "abc" (RunTestList)',
      opts: { rv: 'abc', recursive: true },
      status:
        'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    },
    {
      name: 'negative rv "-1" (RunTestList)',
      opts: { rv: '-1', recursive: true },
      status:
        'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax',
    },
    {
      name: 'rejects resource version and continue token (RunTestList)',
      opts: {
        rv: '1',
        recursive: true,
        limit: 1,
        continue: encodeContinue('/pods/second/foo', '/pods/second/', 9),
      },
      status: 'specifying resource version is not allowed when using continue',
    },
    {
      name: 'continue from empty start key (RunTestList)',
      opts: { recursive: true, continue: encodeContinue('/pods/', '/pods/', 9) },
      status:
        'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
    },
    {
      name: 'continue with rv 0 (RunTestList)',
      opts: { recursive: true, continue: encodeContinue('/pods/first/bar\x00', '/pods/', 0) },
      status:
        'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    },
    {
      name: 'a bad token is reported before the resourceVersion conflict',
      opts: { rv: '5', recursive: true, continue: '=' },
      status:
        'invalid continue token: continue key is not valid: illegal base64 data at input byte 0',
    },
    {
      name: 'rv 0 + rvm Invalid is a plain error, not a Status (RunTestList "rv=0 match=Invalid")',
      opts: { rv: '0', rvm: 'Invalid' },
      plain: 'unknown ResourceVersionMatch value: Invalid',
    },
    {
      name: 'the resourceVersion is parsed before the match is checked',
      opts: { rv: 'x', rvm: 'Invalid' },
      status:
        'invalid resource version: resourceVersion: Invalid value: "x": strconv.ParseUint: parsing "x": invalid syntax',
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.throws(
        () => validateListOptions(prefix, versioner, opts(r.opts)),
        (e: Error) => {
          if (r.status !== undefined) {
            assert.ok(
              e instanceof StatusError && isBadRequest(e),
              `${r.name}: want a 400 StatusError, got ${e}`,
            );
            assert.strictEqual(e.status.code, 400);
            assert.strictEqual(e.message, r.status, r.name);
          } else {
            assert.ok(!(e instanceof StatusError), `${r.name}: want a plain Error`);
            assert.strictEqual(e.message, r.plain, r.name);
          }
          return true;
        },
      );
    });
  }

  const ok: { name: string; opts: Opts; rev: bigint; key: string }[] = [
    {
      name: 'a non-recursive list ignores the continue token',
      opts: { rv: '7', continue: 'garbage' },
      rev: 0n,
      key: '',
    },
    {
      name: 'a token start is relative to the prefix it is decoded under',
      opts: {
        recursive: true,
        limit: 1,
        continue: encodeContinue('/pods/second/foo', '/pods/second/', 9),
      },
      rev: 9n,
      key: '/pods/foo',
    },
    {
      name: 'ignores rv 0 with continue',
      opts: {
        rv: '0',
        recursive: true,
        limit: 1,
        continue: encodeContinue('/pods/third/barfoo', '/pods/', 9),
      },
      rev: 9n,
      key: '/pods/third/barfoo',
    },
    {
      name: 'continue rv -1 reads at the latest revision',
      opts: { recursive: true, continue: encodeContinue('/pods/first/bar\x00', '/pods/', -1) },
      rev: 0n,
      key: '/pods/first/bar\x00',
    },
    {
      name: 'too-high int64 rv stays exact (TooLarge comes from the read)',
      opts: { rv: '9223372036854775807', rvm: 'Exact' },
      rev: 9223372036854775807n,
      key: '',
    },
    {
      name: 'uint64 max wraps to int64 -1 (Go int64(parsedRV))',
      opts: { rv: '18446744073709551615', recursive: true, limit: 5 },
      rev: -1n,
      key: '',
    },
    {
      name: '2^63 Exact wraps to the lowest int64',
      opts: { rv: '9223372036854775808', rvm: 'Exact' },
      rev: -9223372036854775808n,
      key: '',
    },
    {
      name: 'rv "0" with a limit is not legacy exact',
      opts: { rv: '0', recursive: true, limit: 1 },
      rev: 0n,
      key: '',
    },
    { name: 'rv "0" NotOlderThan', opts: { rv: '0', rvm: 'NotOlderThan' }, rev: 0n, key: '' },
    { name: 'rv "0" Exact reads at 0 (latest)', opts: { rv: '0', rvm: 'Exact' }, rev: 0n, key: '' },
  ];
  for (const c of ok) {
    it(c.name, () => {
      assert.deepStrictEqual(validateListOptions('/pods/', versioner, opts(c.opts)), {
        withRev: c.rev,
        continueKey: c.key,
      });
    });
  }
});
