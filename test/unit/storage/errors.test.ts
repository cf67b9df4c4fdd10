// Tests for src/engine/storage/errors.ts: the Status bodies of the reference notes §8.1/§8.3 byte for byte, constructors and Is* helpers.
import * as assert from 'assert';
import {
  StatusError,
  StorageError,
  ErrCode,
  InvalidError,
  errorToAPIStatus,
  hasStatusCause,
  isBadRequest,
  isConflict,
  isCorruptObject,
  isGone,
  isInternalError,
  isInvalid,
  isNotFound,
  isResourceExpired,
  isTimeout,
  isTooLargeResourceVersion,
  isTooManyRequests,
  listExpiredMessage,
  newBadRequest,
  newContinueExpiredError,
  newCorruptObjError,
  newGone,
  newInconsistentContinueError,
  newInternalError,
  newInvalid,
  newKeyNotFoundError,
  newNotFound,
  newResourceExpired,
  newResourceVersionConflictsError,
  newServerTimeout,
  newStorageTimeoutError,
  newTimeoutError,
  newTooLargeResourceVersionError,
  newTooManyRequests,
  reasonForError,
  statusToJSON,
  suggestsClientDelay,
  watchExpiredMessage,
} from '../../../src/engine/storage/errors';
import { FieldPath, forbidden, invalid } from '../../../src/engine/storage/field-errors';

describe('Status bodies (reference §8.3, computed with Go encoding/json)', () => {
  const cases: [string, StatusError, string][] = [
    [
      '410 inconsistent continue with a fresh rv -1 token',
      newInconsistentContinueError(
        'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoicG9kLWJcdTAwMDAifQ',
      ),
      '{"kind":"Status","apiVersion":"v1","metadata":{"continue":"eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoicG9kLWJcdTAwMDAifQ"},"status":"Failure","message":"The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.","reason":"Expired","code":410}',
    ],
    [
      '410 continue expired, token not re-encodable',
      newContinueExpiredError(),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.","reason":"Expired","code":410}',
    ],
    [
      '410 list at a compacted RV',
      newResourceExpired(listExpiredMessage),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The resourceVersion for the provided list is too old.","reason":"Expired","code":410}',
    ],
    [
      '410 watch-cache watch too old (§8.4 ERROR event object)',
      newResourceExpired('too old resource version: 5 (10)'),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (10)","reason":"Expired","code":410}',
    ],
    [
      '504 TooLargeResourceVersion from the watch cache (retry 1)',
      newTooLargeResourceVersionError(20000n, 12345n, 1),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: Too large resource version: 20000, current: 12345","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504}',
    ],
    [
      '504 TooLargeResourceVersion from etcd3 (retry 0, field omitted)',
      newTooLargeResourceVersionError(20000, 12345, 0),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: Too large resource version: 20000, current: 12345","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}]},"code":504}',
    ],
    [
      '400 invalid continue token',
      newBadRequest(
        'invalid continue token: continue key is not valid: illegal base64 data at input byte 0',
      ),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"invalid continue token: continue key is not valid: illegal base64 data at input byte 0","reason":"BadRequest","code":400}',
    ],
    [
      '400 resource version with continue',
      newBadRequest('specifying resource version is not allowed when using continue'),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"specifying resource version is not allowed when using continue","reason":"BadRequest","code":400}',
    ],
    [
      '429 cache not initialised',
      newTooManyRequests('storage is (re)initializing', 1),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"storage is (re)initializing","reason":"TooManyRequests","details":{"retryAfterSeconds":1},"code":429}',
    ],
    [
      '422 ListOptions invalid (§8.1)',
      newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [
        forbidden(
          FieldPath.of('resourceVersionMatch'),
          'resourceVersionMatch is forbidden when continue is provided',
        ),
      ]),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \\"\\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided","reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: resourceVersionMatch is forbidden when continue is provided","field":"resourceVersionMatch"}]},"code":422}',
    ],
  ];
  for (const [name, err, want] of cases) {
    it(name, () => {
      assert.strictEqual(statusToJSON(err.status), want, name);
      // The object itself is what a client decodes from the body: no zero or empty extras.
      assert.deepStrictEqual(err.status, JSON.parse(want), name);
      assert.strictEqual(JSON.stringify(err.status), want.replace(/\\u003c/g, '<'), name);
      assert.strictEqual(err.message, err.status.message, name);
      assert.ok(err instanceof Error, name);
    });
  }

  it('a 429 with retry 0 keeps an empty details object, as Go does for a non-nil pointer', () => {
    assert.strictEqual(
      statusToJSON(newTooManyRequests('x', 0).status),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"x","reason":"TooManyRequests","details":{},"code":429}',
    );
  });

  it('escapes strings as Go does (<, >, &, U+2028, lone surrogates)', () => {
    assert.strictEqual(
      statusToJSON(newBadRequest('a<b>&c\u2028\ud800"\\').status),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"a\\u003cb\\u003e\\u0026c\\u2028\\ufffd\\"\\\\","reason":"BadRequest","code":400}',
    );
  });

  it('writes remainingItemCount 0 when set, and every details field in order', () => {
    assert.strictEqual(
      statusToJSON({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: { selfLink: '/s', resourceVersion: '5', continue: 'c', remainingItemCount: 0 },
        status: 'Failure',
        details: {
          name: 'n',
          group: 'g',
          kind: 'k',
          uid: 'u',
          causes: [{ reason: 'r', message: 'm', field: 'f' }],
          retryAfterSeconds: 2,
        },
        code: 500,
      }),
      '{"kind":"Status","apiVersion":"v1","metadata":{"selfLink":"/s","resourceVersion":"5","continue":"c","remainingItemCount":0},"status":"Failure","details":{"name":"n","group":"g","kind":"k","uid":"u","causes":[{"reason":"r","message":"m","field":"f"}],"retryAfterSeconds":2},"code":500}',
    );
  });
});

describe('api/errors constructors', () => {
  const cases: [string, StatusError, number, string, string][] = [
    ['newGone', newGone('gone'), 410, 'Gone', 'gone'],
    [
      'newNotFound',
      newNotFound({ group: '', resource: 'pods' }, 'foo'),
      404,
      'NotFound',
      'pods "foo" not found',
    ],
    [
      'newNotFound with group',
      newNotFound({ group: 'apps', resource: 'deployments' }, 'd'),
      404,
      'NotFound',
      'deployments.apps "d" not found',
    ],
    [
      'newServerTimeout',
      newServerTimeout({ group: '', resource: 'pods' }, 'list', 2),
      500,
      'ServerTimeout',
      'The list operation against pods could not be completed at this time, please try again.',
    ],
    [
      'newInternalError',
      newInternalError(new Error('boom')),
      500,
      'InternalError',
      'Internal error occurred: boom',
    ],
    ['newTimeoutError', newTimeoutError('slow', 0), 504, 'Timeout', 'Timeout: slow'],
    [
      'watch expired',
      newResourceExpired(watchExpiredMessage),
      410,
      'Expired',
      'The resourceVersion for the provided watch is too old.',
    ],
  ];
  for (const [name, err, code, reason, message] of cases) {
    it(`${name}: ${code} ${reason}`, () => {
      assert.deepStrictEqual(
        [err.status.code, err.status.reason, err.message],
        [code, reason, message],
        name,
      );
    });
  }

  it('newInternalError carries the error as its only cause', () => {
    assert.strictEqual(
      statusToJSON(newInternalError(new Error('boom')).status),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: boom","reason":"InternalError","details":{"causes":[{"message":"boom"}]},"code":500}',
    );
  });

  it('newInvalid aggregates several field errors as [a, b]', () => {
    const err = newInvalid({ group: '', kind: 'Pod' }, 'p', [
      invalid(FieldPath.of('metadata', 'name'), 'A', 'bad'),
      forbidden(FieldPath.of('spec'), 'no'),
    ]);
    assert.strictEqual(
      err.message,
      'Pod "p" is invalid: [metadata.name: Invalid value: "A": bad, spec: Forbidden: no]',
    );
    assert.deepStrictEqual(err.status.details?.causes, [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "A": bad', field: 'metadata.name' },
      { reason: 'FieldValueForbidden', message: 'Forbidden: no', field: 'spec' },
    ]);
  });
});

describe('Is* helpers', () => {
  const tooLarge = newTooLargeResourceVersionError(5n, 3n, 0);
  const table: [string, (e: unknown) => boolean, unknown, boolean][] = [
    ['isTooLargeResourceVersion on TooLarge', isTooLargeResourceVersion, tooLarge, true],
    [
      'isTooLargeResourceVersion on a plain timeout',
      isTooLargeResourceVersion,
      newTimeoutError('x', 0),
      false,
    ],
    [
      'isTooLargeResourceVersion on a plain Error',
      isTooLargeResourceVersion,
      new Error('Too large resource version'),
      false,
    ],
    ['isTimeout on TooLarge', isTimeout, tooLarge, true],
    ['isBadRequest', isBadRequest, newBadRequest('x'), true],
    [
      'isBadRequest by code with an unknown reason',
      isBadRequest,
      new StatusError({ metadata: {}, code: 400, reason: 'Whatever' }),
      true,
    ],
    [
      'isBadRequest not by code with a known reason',
      isBadRequest,
      new StatusError({ metadata: {}, code: 400, reason: 'Invalid' }),
      false,
    ],
    ['isResourceExpired', isResourceExpired, newResourceExpired('x'), true],
    ['isResourceExpired is not Gone', isResourceExpired, newGone('x'), false],
    ['isGone', isGone, newGone('x'), true],
    ['isGone is not Expired (a known reason)', isGone, newResourceExpired('x'), false],
    ['isNotFound', isNotFound, newNotFound({ group: '', resource: 'pods' }, 'x'), true],
    ['isInvalid', isInvalid, newInvalid({ group: '', kind: 'Pod' }, 'x', []), true],
    ['isInternalError', isInternalError, newInternalError(new Error('x')), true],
    [
      'isTooManyRequests by code even with a known reason',
      isTooManyRequests,
      new StatusError({ metadata: {}, code: 429, reason: 'Timeout' }),
      true,
    ],
    [
      'isConflict on a storage conflict',
      isConflict,
      newResourceVersionConflictsError('/k', 3),
      true,
    ],
    ['isCorruptObject', isCorruptObject, newCorruptObjError('/k', new Error('bad')), true],
    ['isBadRequest on undefined', isBadRequest, undefined, false],
  ];
  for (const [name, fn, err, want] of table) {
    it(`${name} -> ${want}`, () => {
      assert.strictEqual(fn(err), want, name);
    });
  }

  it('hasStatusCause, reasonForError and suggestsClientDelay', () => {
    assert.ok(hasStatusCause(tooLarge, 'ResourceVersionTooLarge'));
    assert.strictEqual(reasonForError(tooLarge), 'Timeout');
    assert.strictEqual(reasonForError(new Error('x')), '');
    assert.strictEqual(suggestsClientDelay(newTooManyRequests('x', 3)), 3);
    assert.strictEqual(suggestsClientDelay(newTooManyRequests('x', 0)), undefined);
    assert.strictEqual(
      suggestsClientDelay(newServerTimeout({ group: '', resource: 'pods' }, 'get', 0)),
      0,
    );
    assert.strictEqual(suggestsClientDelay(newBadRequest('x')), undefined);
  });
});

describe('storage errors', () => {
  it('formats StorageError like storage.StorageError.Error()', () => {
    assert.strictEqual(
      newKeyNotFoundError('/registry/pods/a/b', 7).message,
      'StorageError: key not found, Code: 1, Key: /registry/pods/a/b, ResourceVersion: 7, AdditionalErrorMsg: <nil>',
    );
    assert.strictEqual(
      newStorageTimeoutError('/registry/pods/', 'request did not complete within requested timeout')
        .message,
      'StorageError: request timeout, Code: 6, Key: /registry/pods/, ResourceVersion: 0, AdditionalErrorMsg: request did not complete within requested timeout',
    );
    const e = newCorruptObjError('/k', new Error('bad'));
    assert.ok(e instanceof StorageError && e.code === ErrCode.CorruptObj);
  });

  it('InvalidError aggregates its field errors', () => {
    const e = new InvalidError([invalid(FieldPath.of('resourceVersion'), 'abc', 'nope')]);
    assert.strictEqual(e.message, 'resourceVersion: Invalid value: "abc": nope');
  });

  it('errorToAPIStatus keeps a StatusError and turns a plain error into a 500 (409 for a storage conflict)', () => {
    assert.strictEqual(
      statusToJSON(errorToAPIStatus(newBadRequest('x'))),
      statusToJSON(newBadRequest('x').status),
    );
    assert.strictEqual(
      statusToJSON(errorToAPIStatus(new Error('unknown ResourceVersionMatch value: foo'))),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"unknown ResourceVersionMatch value: foo","code":500}',
    );
    assert.strictEqual(errorToAPIStatus(newResourceVersionConflictsError('/k', 1)).code, 409);
    assert.strictEqual(errorToAPIStatus(new StatusError({ metadata: {} })).code, 500);
  });
});
