// Port of pkg/storage/testing/store_tests.go RunTestList (etcd column, apiserver-reference.md §3.4)
// against EtcdStore over the in-memory etcd: every row, with exact continue tokens, list RVs and
// remainingItemCount; run with the 1.36 paging path and with the 1.37 RangeStream path.
import * as assert from 'assert';
import { isTooLargeResourceVersion, type Status } from '../../../src/engine/storage/errors';
import type { KubeObject } from '../../../src/engine/storage/objects';
import type { ListResult } from '../../../src/engine/etcd3/store';
import type { GetListOptions } from '../../../src/engine/storage/list-options';
import { encodeContinue } from '../../../src/engine/storage/continue';
import {
  encodeContinueOrDie,
  names,
  seedMultiLevelData,
  testSetup,
  type TestSetup,
  type SeededData,
  type SetupOptions,
} from './etcd3-testing';
import type { EtcdUnderTest } from '../../harness/etcd-under-test';

interface ListCase {
  name: string;
  prefix: string;
  rv?: string;
  rvMatch?: string;
  limit?: number;
  field?: string;
  cont?: string;
  expectedOut?: KubeObject[];
  expectedAlternatives?: KubeObject[][];
  expectContinue?: boolean;
  expectContinueExact?: string;
  expectedRemainingItemCount?: number;
  expectError?: boolean;
  expectRVTooLarge?: boolean;
  expectRVTooOld?: boolean;
  expectContinueTooOld?: boolean;
  expectRV?: string;
  /** expectRVFunc: resourceVersionNotOlderThan(v). */
  expectRVNotOlderThan?: string;
}

function cases(d: SeededData): ListCase[] {
  const { initialRV, created: c, updated, continueRV } = d;
  const currentRV = String(continueRV + 1);
  const listRV = String(continueRV);
  const rv = (o: KubeObject) => o.metadata.resourceVersion as string;
  const nsName = (o: KubeObject) => `${o.metadata.namespace}/${o.metadata.name}`;
  const secondContinuation = encodeContinue('/pods/second/foo', '/pods/second/', continueRV);
  return [
    { name: 'rejects invalid resource version', prefix: '/pods/', rv: 'abc', expectError: true },
    {
      name: 'rejects resource version and continue token',
      prefix: '/pods/',
      limit: 1,
      cont: secondContinuation,
      rv: '1',
      expectError: true,
    },
    {
      name: 'rejects resource version set too high',
      prefix: '/pods/',
      rv: '9223372036854775807',
      expectRVTooLarge: true,
    },
    { name: 'test List on existing key', prefix: '/pods/first/', expectedOut: [updated] },
    {
      name: 'test List on existing key with resource version set to 0',
      prefix: '/pods/first/',
      expectedAlternatives: [[], [updated]],
      rv: '0',
    },
    {
      name: 'test List on existing key with resource version set before update, match=Exact',
      prefix: '/pods/first/',
      expectedOut: [c[0]],
      rv: rv(c[0]),
      rvMatch: 'Exact',
      expectRV: rv(c[0]),
    },
    {
      name: 'test List on existing key with resource version set before creation, match=Exact',
      prefix: '/pods/second/',
      expectedOut: [],
      rv: rv(c[0]),
      rvMatch: 'Exact',
      expectRV: rv(c[0]),
    },
    {
      name: 'test List on existing key with resource version set after creation, match=Exact',
      prefix: '/pods/second/',
      expectedOut: [c[1]],
      rv: rv(c[1]),
      rvMatch: 'Exact',
      expectRV: rv(c[1]),
    },
    {
      name: 'test List on existing key with resource version set before first write, match=Exact',
      prefix: '/pods/first/',
      rv: initialRV,
      rvMatch: 'Exact',
      expectRVTooOld: true,
    },
    {
      name: 'test List on existing key with resource version set to 0, match=NotOlderThan',
      prefix: '/pods/first/',
      expectedAlternatives: [[], [updated]],
      rv: '0',
      rvMatch: 'NotOlderThan',
    },
    {
      name: 'test List on existing key with resource version set to 0, match=Invalid',
      prefix: '/pods/first/',
      rv: '0',
      rvMatch: 'Invalid',
      expectError: true,
    },
    {
      name: 'test List on existing key with resource version set before first write, match=NotOlderThan',
      prefix: '/pods/first/',
      expectedAlternatives: [[], [updated]],
      rv: initialRV,
      rvMatch: 'NotOlderThan',
    },
    {
      name: 'test List on existing key with resource version set before first write, match=Invalid',
      prefix: '/pods/first/',
      rv: initialRV,
      rvMatch: 'Invalid',
      expectError: true,
    },
    {
      name: 'test List on existing key with resource version set to current resource version',
      prefix: '/pods/first/',
      expectedOut: [updated],
      rv: listRV,
    },
    {
      name: 'test List on existing key with resource version set to current resource version, match=Exact',
      prefix: '/pods/first/',
      expectedOut: [updated],
      rv: listRV,
      rvMatch: 'Exact',
      expectRV: listRV,
    },
    {
      name: 'test List on existing key with resource version set to current resource version, match=NotOlderThan',
      prefix: '/pods/first/',
      expectedOut: [updated],
      rv: listRV,
      rvMatch: 'NotOlderThan',
    },
    { name: 'test List on non-existing key', prefix: '/pods/non-existing/', expectedOut: [] },
    {
      name: 'test List with pod name matching',
      prefix: '/pods/first/',
      field: 'metadata.name!=bar',
      expectedOut: [],
    },
    {
      name: 'test List with pod name matching with resource version set to current resource version, match=NotOlderThan',
      prefix: '/pods/first/',
      field: 'metadata.name!=bar',
      expectedOut: [],
      rv: listRV,
      rvMatch: 'NotOlderThan',
    },
    {
      name: 'test List with limit',
      prefix: '/pods/second/',
      limit: 1,
      expectedOut: [c[1]],
      expectRV: currentRV,
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${c[1].metadata.name}\x00`, Number(currentRV)),
      expectedRemainingItemCount: 1,
    },
    {
      name: 'test List with limit at current resource version',
      prefix: '/pods/second/',
      limit: 1,
      expectedOut: [c[1]],
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${c[1].metadata.name}\x00`, continueRV),
      expectedRemainingItemCount: 1,
      rv: listRV,
      expectRV: listRV,
    },
    {
      name: 'test List with limit at current resource version and match=Exact',
      prefix: '/pods/second/',
      limit: 1,
      expectedOut: [c[1]],
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${c[1].metadata.name}\x00`, continueRV),
      expectedRemainingItemCount: 1,
      rv: listRV,
      rvMatch: 'Exact',
      expectRV: listRV,
    },
    {
      name: 'test List with limit at current resource version and match=NotOlderThan',
      prefix: '/pods/second/',
      limit: 1,
      expectedOut: [c[1]],
      expectContinue: true,
      expectedRemainingItemCount: 1,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectRVNotOlderThan: listRV,
    },
    {
      name: 'test List with limit at resource version 0',
      prefix: '/pods/second/',
      limit: 1,
      expectedOut: [c[1]],
      expectContinue: true,
      expectedRemainingItemCount: 1,
      rv: '0',
      expectRVNotOlderThan: listRV,
    },
    {
      name: 'test List with limit at resource version 0 match=NotOlderThan',
      prefix: '/pods/second/',
      limit: 1,
      expectedOut: [c[1]],
      expectContinue: true,
      expectedRemainingItemCount: 1,
      rv: '0',
      rvMatch: 'NotOlderThan',
      expectRVNotOlderThan: listRV,
    },
    {
      name: 'test List with limit at resource version before created and match=Exact',
      prefix: '/pods/second/',
      limit: 1,
      expectedOut: [],
      expectContinue: false,
      rv: rv(c[0]),
      rvMatch: 'Exact',
      expectRV: rv(c[0]),
    },
    {
      name: 'test List with limit at resource version after created and match=Exact',
      prefix: '/pods/second/',
      limit: 1,
      expectedOut: [c[1]],
      expectContinue: false,
      rv: rv(c[1]),
      rvMatch: 'Exact',
      expectRV: rv(c[1]),
    },
    {
      name: 'test List with pregenerated continue token',
      prefix: '/pods/second/',
      limit: 1,
      cont: secondContinuation,
      expectedOut: [c[2]],
    },
    {
      name: 'ignores resource version 0 for List with pregenerated continue token',
      prefix: '/pods/second/',
      limit: 1,
      cont: secondContinuation,
      rv: '0',
      expectedOut: [c[2]],
    },
    {
      name: 'test List with multiple levels of directories and expect flattened result',
      prefix: '/pods/second/',
      expectedOut: [c[1], c[2]],
    },
    {
      name: 'test List with multiple levels of directories and expect flattened result with current resource version and match=NotOlderThan',
      prefix: '/pods/second/',
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [c[1], c[2]],
    },
    {
      name: 'test List with filter returning only one item, ensure only a single page returned',
      prefix: '/pods/',
      field: 'metadata.name=barfoo',
      limit: 1,
      expectedOut: [c[3]],
      expectContinue: true,
    },
    {
      name: 'test List with filter returning only one item, ensure only a single page returned with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      field: 'metadata.name=barfoo',
      limit: 1,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [c[3]],
      expectRVNotOlderThan: listRV,
      expectContinue: true,
    },
    {
      name: 'test List with filter returning only one item, covers the entire list',
      prefix: '/pods/',
      field: 'metadata.name=barfoo',
      limit: 2,
      expectedOut: [c[3]],
      expectContinue: false,
    },
    {
      name: 'test List with filter returning only one item, covers the entire list with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      field: 'metadata.name=barfoo',
      limit: 2,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [c[3]],
      expectRVNotOlderThan: listRV,
      expectContinue: false,
    },
    {
      name: 'test List with filter returning only one item, covers the entire list, with resource version 0',
      prefix: '/pods/',
      field: 'metadata.name=barfoo',
      limit: 2,
      rv: '0',
      expectedAlternatives: [[], [c[3]]],
      expectContinue: false,
    },
    {
      name: 'test List with filter returning two items, more pages possible',
      prefix: '/pods/',
      field: 'metadata.name=bar',
      limit: 2,
      expectContinue: true,
      expectedOut: [updated, c[1]],
    },
    {
      name: 'test List with filter returning two items, more pages possible with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      field: 'metadata.name=bar',
      limit: 2,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectContinue: true,
      expectedOut: [updated, c[1]],
    },
    {
      name: 'filter returns two items split across multiple pages',
      prefix: '/pods/',
      field: 'metadata.name=foo',
      limit: 2,
      expectedOut: [c[2], c[4]],
    },
    {
      name: 'filter returns two items split across multiple pages with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      field: 'metadata.name=foo',
      limit: 2,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [c[2], c[4]],
    },
    {
      name: 'filter returns one item for last page, ends on last item, not full',
      prefix: '/pods/',
      field: 'metadata.name=foo',
      limit: 2,
      cont: encodeContinueOrDie('third/barfoo', continueRV),
      expectedOut: [c[4]],
    },
    {
      name: 'filter returns one item for last page, starts on last item, full',
      prefix: '/pods/',
      field: 'metadata.name=foo',
      limit: 1,
      cont: encodeContinueOrDie('third/barfoo', continueRV),
      expectedOut: [c[4]],
    },
    {
      name: 'filter returns one item for last page, starts on last item, partial page',
      prefix: '/pods/',
      field: 'metadata.name=foo',
      limit: 2,
      cont: encodeContinueOrDie('third/barfoo', continueRV),
      expectedOut: [c[4]],
    },
    {
      name: 'filter returns two items, page size equal to total list size',
      prefix: '/pods/',
      field: 'metadata.name=foo',
      limit: 5,
      expectedOut: [c[2], c[4]],
    },
    {
      name: 'filter returns two items, page size equal to total list size with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      field: 'metadata.name=foo',
      limit: 5,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [c[2], c[4]],
    },
    {
      name: 'filter returns one item, page size equal to total list size',
      prefix: '/pods/',
      field: 'metadata.name=barfoo',
      limit: 5,
      expectedOut: [c[3]],
    },
    {
      name: 'filter returns one item, page size equal to total list size with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      field: 'metadata.name=barfoo',
      limit: 5,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [c[3]],
    },
    { name: 'list all items', prefix: '/pods/', expectedOut: [updated, c[1], c[2], c[3], c[4]] },
    {
      name: 'list all items with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [updated, c[1], c[2], c[3], c[4]],
    },
    {
      name: 'verify list returns updated version of object; filter returns one item, page size equal to total list size with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      field: 'spec.nodeName=fakeNode',
      limit: 5,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [updated],
    },
    {
      name: 'verify list does not return deleted object; filter for deleted object, page size equal to total list size with current resource version and match=NotOlderThan',
      prefix: '/pods/',
      field: 'metadata.name=baz',
      limit: 5,
      rv: listRV,
      rvMatch: 'NotOlderThan',
      expectedOut: [],
    },
    {
      name: 'test consistent List',
      prefix: '/pods/empty',
      rv: '',
      expectRV: currentRV,
      expectedOut: [],
    },
    {
      name: 'test non-consistent List',
      prefix: '/pods/empty',
      rv: '0',
      expectRVNotOlderThan: initialRV,
      expectedOut: [],
    },
    // match=Exact
    {
      name: 'test List with resource version set before first write, match=Exact',
      prefix: '/pods/',
      rv: initialRV,
      rvMatch: 'Exact',
      expectRVTooOld: true,
    },
    {
      name: 'test List with resource version of first write, match=Exact',
      prefix: '/pods/',
      expectedOut: [c[0]],
      rv: rv(c[0]),
      rvMatch: 'Exact',
      expectRV: rv(c[0]),
    },
    {
      name: 'test List with resource version of second write, match=Exact',
      prefix: '/pods/',
      expectedOut: [c[0], c[1]],
      rv: rv(c[1]),
      rvMatch: 'Exact',
      expectRV: rv(c[1]),
    },
    {
      name: 'test List with resource version of third write, match=Exact',
      prefix: '/pods/',
      expectedOut: [c[0], c[1], c[2]],
      rv: rv(c[2]),
      rvMatch: 'Exact',
      expectRV: rv(c[2]),
    },
    {
      name: 'test List with resource version of fourth write, match=Exact',
      prefix: '/pods/',
      expectedOut: [c[0], c[1], c[2], c[3]],
      rv: rv(c[3]),
      rvMatch: 'Exact',
      expectRV: rv(c[3]),
    },
    {
      name: 'test List with resource version of fifth write, match=Exact',
      prefix: '/pods/',
      expectedOut: [c[0], c[1], c[2], c[3], c[4]],
      rv: rv(c[4]),
      rvMatch: 'Exact',
      expectRV: rv(c[4]),
    },
    {
      name: 'test List with resource version of six write, match=Exact',
      prefix: '/pods/',
      expectedOut: [c[0], c[1], c[2], c[3], c[4], c[5]],
      rv: rv(c[5]),
      rvMatch: 'Exact',
      expectRV: rv(c[5]),
    },
    {
      name: 'test List with resource version of seventh write, match=Exact',
      prefix: '/pods/',
      expectedOut: [updated, c[1], c[2], c[3], c[4], c[5]],
      rv: rv(updated),
      rvMatch: 'Exact',
      expectRV: rv(updated),
    },
    {
      name: 'test List with resource version of eight write, match=Exact',
      prefix: '/pods/',
      expectedOut: [updated, c[1], c[2], c[3], c[4]],
      rv: listRV,
      rvMatch: 'Exact',
      expectRV: listRV,
    },
    {
      name: 'test List with resource version after writes, match=Exact',
      prefix: '/pods/',
      expectedOut: [updated, c[1], c[2], c[3], c[4]],
      rv: currentRV,
      rvMatch: 'Exact',
      expectRV: currentRV,
    },
    {
      name: 'test List with future resource version, match=Exact',
      prefix: '/pods/',
      rv: String(continueRV + 2),
      rvMatch: 'Exact',
      expectRVTooLarge: true,
    },
    // limit, match=Exact
    {
      name: 'test List with limit, resource version of second write, match=Exact',
      prefix: '/pods/',
      limit: 1,
      expectedOut: [c[0]],
      rv: rv(c[1]),
      rvMatch: 'Exact',
      expectRV: rv(c[1]),
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[0])}\x00`, Number(rv(c[1]))),
      expectedRemainingItemCount: 1,
    },
    {
      name: 'test List with limit, resource version of third write, match=Exact',
      prefix: '/pods/',
      limit: 2,
      rv: rv(c[2]),
      rvMatch: 'Exact',
      expectedOut: [c[0], c[1]],
      expectRV: rv(c[2]),
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[1])}\x00`, Number(rv(c[2]))),
      expectedRemainingItemCount: 1,
    },
    {
      name: 'test List with limit, resource version of fourth write, match=Exact',
      prefix: '/pods/',
      limit: 4,
      rv: rv(c[3]),
      rvMatch: 'Exact',
      expectedOut: [c[0], c[1], c[2], c[3]],
      expectRV: rv(c[3]),
    },
    {
      name: 'test List with limit, resource version of fifth write, match=Exact',
      prefix: '/pods/',
      limit: 1,
      rv: rv(c[4]),
      rvMatch: 'Exact',
      expectedOut: [c[0]],
      expectRV: rv(c[4]),
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[0])}\x00`, Number(rv(c[4]))),
      expectedRemainingItemCount: 4,
    },
    {
      name: 'test List with limit, resource version of six write, match=Exact',
      prefix: '/pods/',
      limit: 2,
      rv: rv(c[5]),
      rvMatch: 'Exact',
      expectedOut: [c[0], c[1]],
      expectRV: rv(c[5]),
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[1])}\x00`, Number(rv(c[5]))),
      expectedRemainingItemCount: 4,
    },
    {
      name: 'test List with limit, resource version of seventh write, match=Exact',
      prefix: '/pods/',
      limit: 4,
      rv: rv(updated),
      rvMatch: 'Exact',
      expectedOut: [updated, c[1], c[5], c[2]],
      expectRV: rv(updated),
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[2])}\x00`, Number(rv(updated))),
      expectedRemainingItemCount: 2,
    },
    {
      name: 'test List with limit, resource version of eight write, match=Exact',
      prefix: '/pods/',
      limit: 8,
      expectedOut: [updated, c[1], c[2], c[3], c[4]],
      rv: listRV,
      rvMatch: 'Exact',
      expectRV: listRV,
    },
    {
      name: 'test List with limit, resource version after writes, match=Exact',
      prefix: '/pods/',
      limit: 1,
      rv: currentRV,
      rvMatch: 'Exact',
      expectedOut: [updated],
      expectRV: currentRV,
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(updated)}\x00`, continueRV + 1),
      expectedRemainingItemCount: 4,
    },
    // Continue
    {
      name: 'test List with continue, resource version before first write',
      prefix: '/pods/',
      limit: 1,
      cont: encodeContinueOrDie(`${nsName(c[0])}\x00`, Number(initialRV)),
      expectContinueTooOld: true,
    },
    {
      name: 'test List with continue, resource version of first write',
      prefix: '/pods/',
      limit: 1,
      cont: encodeContinueOrDie(`${nsName(c[0])}\x00`, Number(rv(c[0]))),
      expectedOut: [],
      expectRV: rv(c[0]),
    },
    {
      name: 'test List with continue, resource version of second write',
      prefix: '/pods/',
      limit: 1,
      cont: encodeContinueOrDie(`${nsName(c[0])}\x00`, Number(rv(c[1]))),
      expectedOut: [c[1]],
      expectRV: rv(c[1]),
    },
    {
      name: 'test List with continue, resource version of third write',
      prefix: '/pods/',
      limit: 2,
      cont: encodeContinueOrDie(`${nsName(c[1])}\x00`, Number(rv(c[2]))),
      expectedOut: [c[2]],
      expectRV: rv(c[2]),
    },
    {
      name: 'test List with continue, resource version of fifth write',
      prefix: '/pods/',
      limit: 1,
      cont: encodeContinueOrDie(`${nsName(c[0])}\x00`, Number(rv(c[4]))),
      expectedOut: [c[1]],
      expectRV: rv(c[4]),
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[1])}\x00`, Number(rv(c[4]))),
      expectedRemainingItemCount: 3,
    },
    {
      name: 'test List with continue, resource version of six write',
      prefix: '/pods/',
      limit: 2,
      cont: encodeContinueOrDie(`${nsName(c[1])}\x00`, Number(rv(c[5]))),
      expectedOut: [c[5], c[2]],
      expectRV: rv(c[5]),
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[2])}\x00`, Number(rv(c[5]))),
      expectedRemainingItemCount: 2,
    },
    {
      name: 'test List with continue, resource version of seventh write',
      prefix: '/pods/',
      limit: 4,
      cont: encodeContinueOrDie(`${nsName(c[2])}\x00`, Number(rv(updated))),
      expectedOut: [c[3], c[4]],
      expectRV: rv(updated),
    },
    {
      name: 'test List with continue, resource version after writes',
      prefix: '/pods/',
      limit: 1,
      cont: encodeContinueOrDie(`${nsName(updated)}\x00`, continueRV + 1),
      expectedOut: [c[1]],
      expectRV: currentRV,
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[1])}\x00`, continueRV + 1),
      expectedRemainingItemCount: 3,
    },
    {
      name: 'test List with continue from second pod, negative resource version gives consistent read',
      prefix: '/pods/',
      cont: encodeContinueOrDie(`${nsName(c[0])}\x00`, -1),
      expectedOut: [c[1], c[2], c[3], c[4]],
      expectRV: currentRV,
    },
    {
      name: 'test List with continue from second pod and limit, negative resource version gives consistent read',
      prefix: '/pods/',
      limit: 2,
      cont: encodeContinueOrDie(`${nsName(c[0])}\x00`, -1),
      expectedOut: [c[1], c[2]],
      expectContinue: true,
      expectContinueExact: encodeContinueOrDie(`${nsName(c[2])}\x00`, continueRV + 1),
      expectRV: currentRV,
      expectedRemainingItemCount: 2,
    },
    {
      name: 'test List with continue from third pod, negative resource version gives consistent read',
      prefix: '/pods/',
      cont: encodeContinueOrDie(`${nsName(c[2])}\x00`, -1),
      expectedOut: [c[3], c[4]],
      expectRV: currentRV,
    },
    {
      name: 'test List with continue from empty fails',
      prefix: '/pods/',
      cont: encodeContinueOrDie('', continueRV),
      expectError: true,
    },
    {
      name: 'test List with continue from first pod, empty resource version fails',
      prefix: '/pods/',
      cont: encodeContinueOrDie(`${nsName(c[0])}\x00`, 0),
      expectError: true,
    },
    { name: 'test List with negative rv fails', prefix: '/pods/', rv: '-1', expectError: true },
  ];
}

/** The items in key order (sortablePodList sorts by namespace/name). */
function sorted(items: KubeObject[]): KubeObject[] {
  return [...items].sort((a, b) => {
    const ka = `${a.metadata.namespace}/${a.metadata.name}`;
    const kb = `${b.metadata.namespace}/${b.metadata.name}`;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

function runTestList(etcd: EtcdUnderTest, profile: string, setup: SetupOptions): void {
  describe(`RunTestList (${profile})`, () => {
    let seeded: SeededData;
    let t: TestSetup;
    before(async () => {
      t = await testSetup(etcd, setup);
      seeded = await seedMultiLevelData(t);
      assert.strictEqual(seeded.initialRV, '1', 'initialRV');
      assert.strictEqual(seeded.continueRV, 9, 'continueRV');
      assert.strictEqual(t.etcd.currentRevision(), 10, 'currentRV after compaction');
    });

    it('passes every row of the table (items, continue tokens, RVs, remainingItemCount, errors)', async () => {
      const table = cases(seeded);
      assert.strictEqual(table.length, 86, 'the whole upstream table');
      for (const tt of table) {
        // Keys are given as full etcd keys: /registry + the upstream prefix.
        const opts: GetListOptions = {
          resourceVersion: tt.rv ?? '',
          resourceVersionMatch: tt.rvMatch ?? '',
          recursive: true,
          predicate: { field: tt.field, limit: tt.limit, continue: tt.cont },
        };
        let out: ListResult | undefined;
        let status: Status | undefined;
        let thrown: unknown;
        try {
          out = await t.store.getList('/registry' + tt.prefix, opts);
        } catch (e) {
          thrown = e;
          status = (e as { status?: Status }).status;
        }
        if (tt.expectRVTooLarge) {
          assert.ok(
            isTooLargeResourceVersion(thrown),
            `${tt.name}: expected TooLargeResourceVersion, got ${String(thrown)}`,
          );
          continue;
        }
        if (tt.expectRVTooOld) {
          assert.ok(
            status?.message?.includes('The resourceVersion for the provided list is too old'),
            `${tt.name}: expected too old, got ${String(thrown)}`,
          );
          assert.strictEqual(status?.code, 410, `${tt.name}: code`);
          continue;
        }
        if (tt.expectContinueTooOld) {
          assert.ok(
            status?.message?.includes(
              'The provided continue parameter is too old to display a consistent list result',
            ),
            `${tt.name}: got ${String(thrown)}`,
          );
          continue;
        }
        if (thrown !== undefined) {
          assert.ok(tt.expectError, `${tt.name}: GetList failed: ${String(thrown)}`);
          assert.ok(status, `${tt.name}: the error carries a Status`);
          continue;
        }
        assert.ok(!tt.expectError, `${tt.name}: expected an error but got none`);
        const list = out as ListResult;
        assert.ok(Array.isArray(list.items), `${tt.name}: items is an array`);
        assert.strictEqual(
          list.continue !== undefined && list.continue.length > 0,
          !!tt.expectContinue,
          `${tt.name}: continue ${String(list.continue)}`,
        );
        if (tt.expectContinueExact)
          assert.strictEqual(
            list.continue,
            tt.expectContinueExact,
            `${tt.name}: exact continue token`,
          );
        if (tt.expectRV)
          assert.strictEqual(list.resourceVersion, tt.expectRV, `${tt.name}: list resourceVersion`);
        if (tt.expectRVNotOlderThan) {
          assert.ok(
            BigInt(list.resourceVersion) >= BigInt(tt.expectRVNotOlderThan),
            `${tt.name}: RV ${list.resourceVersion} not older than ${tt.expectRVNotOlderThan}`,
          );
        }
        if (tt.expectedAlternatives) {
          const got = JSON.stringify(list.items);
          assert.ok(
            tt.expectedAlternatives.some((a) => JSON.stringify(a) === got),
            `${tt.name}: items ${names(list.items).join(',')} not among the alternatives`,
          );
        } else {
          assert.deepStrictEqual(list.items, sorted(tt.expectedOut ?? []), `${tt.name}: items`);
        }
        assert.strictEqual(
          list.remainingItemCount,
          tt.expectedRemainingItemCount,
          `${tt.name}: remainingItemCount`,
        );
      }
    });

    it('reports the exact 400/410/504 Status bodies of the rejected rows', async () => {
      const big = '9223372036854775807';
      const rows: [string, GetListOptions, Partial<Status>][] = [
        [
          'invalid rv',
          { resourceVersion: 'abc' },
          {
            code: 400,
            reason: 'BadRequest',
            message:
              'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
          },
        ],
        [
          'rv and continue',
          {
            resourceVersion: '1',
            predicate: {
              limit: 1,
              continue: encodeContinue('/pods/second/foo', '/pods/second/', 9),
            },
          },
          { code: 400, message: 'specifying resource version is not allowed when using continue' },
        ],
        [
          'too high (legacy, no limit)',
          { resourceVersion: big },
          {
            code: 504,
            reason: 'Timeout',
            message: `Timeout: Too large resource version: ${big}, current: 10`,
          },
        ],
        [
          'future Exact',
          { resourceVersion: '11', resourceVersionMatch: 'Exact' },
          { code: 504, message: 'Timeout: Too large resource version: 11, current: 10' },
        ],
        [
          'Exact @1',
          { resourceVersion: '1', resourceVersionMatch: 'Exact' },
          {
            code: 410,
            reason: 'Expired',
            message: 'The resourceVersion for the provided list is too old.',
          },
        ],
        [
          'continue @1',
          { predicate: { limit: 1, continue: encodeContinueOrDie('first/bar\x00', 1) } },
          {
            code: 410,
            reason: 'Expired',
            metadata: { continue: encodeContinueOrDie('first/bar\x00', -1) },
          },
        ],
        [
          'continue from empty',
          { predicate: { continue: encodeContinueOrDie('', 9) } },
          {
            code: 400,
            message:
              'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
          },
        ],
        [
          'continue rv 0',
          { predicate: { continue: encodeContinueOrDie('first/bar\x00', 0) } },
          {
            code: 400,
            message:
              'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
          },
        ],
        [
          'negative rv',
          { resourceVersion: '-1' },
          {
            code: 400,
            message:
              'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax',
          },
        ],
      ];
      for (const [name, opts, want] of rows) {
        let status: Status | undefined;
        try {
          await t.store.getList('/registry/pods/', opts);
        } catch (e) {
          status = (e as { status?: Status }).status;
        }
        assert.ok(status, `${name}: rejected with a Status`);
        for (const [k, v] of Object.entries(want)) {
          assert.deepStrictEqual(
            (status as unknown as Record<string, unknown>)[k],
            v,
            `${name}: ${k}`,
          );
        }
      }
    });
  });
}

/** Registers the cases over `etcd` (the model in the unit suite, a real etcd in the etcd suite). */
export function storeListCases(etcd: EtcdUnderTest): void {
  runTestList(etcd, 'release-1.36 paging', {});
  // Memory only: RangeStream is etcd 3.7's; the etcd suite's 3.4 answers Unimplemented.
  if (etcd.kind === 'memory')
    runTestList(etcd, '1.37 preview: EtcdRangeStream on, etcd supports RangeStream', {
      features: { EtcdRangeStream: true },
      rangeStream: 'supported',
      rangeStreamInitialChunk: 2,
    });
  runTestList(etcd, '1.37 preview: EtcdRangeStream on, etcd answers Unimplemented', {
    features: { EtcdRangeStream: true },
    rangeStream: 'unimplemented',
  });
}
