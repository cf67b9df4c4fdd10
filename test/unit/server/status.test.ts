// Tests for src/server/status.ts: storeerr.Interpret*Error and ErrorToAPIStatus, as the Status
// bodies kube-apiserver writes (apimachinery pkg/api/errors/errors.go, apiserver
// pkg/storage/errors/storage.go, responsewriters/status.go).
import * as assert from 'assert';
import {
  InvalidError,
  StorageInternalError,
  newBadRequest,
  newCorruptObjError,
  newInvalidObjError,
  newKeyExistsError,
  newKeyNotFoundError,
  newResourceVersionConflictsError,
  newStorageTimeoutError,
  newUnreachableError,
} from '../../../src/engine/storage/errors';
import { invalid, FieldPath } from '../../../src/engine/storage/field-errors';
import {
  interpretStorageError,
  newNotAcceptableError,
  newOptimisticLockConflict,
  newUnsupportedMediaTypeError,
  statusBody,
  statusForError,
  type StorageOperation,
} from '../../../src/server/status';
import {
  newForbidden,
  newGenerateNameConflict,
  newMethodNotSupported,
  newRequestEntityTooLargeError,
  newUnauthorized,
} from '../../../src/engine/storage/errors';

const pods = { group: '', resource: 'pods' };
const widgets = { group: 'example.com', resource: 'widgets' };
const key = '/registry/pods/default/x';

describe('server/status', () => {
  describe('statusForError: storeerr interpretation per operation', () => {
    const cases: {
      name: string;
      op: StorageOperation;
      err: unknown;
      gr?: typeof pods;
      body: string;
    }[] = [
      {
        name: 'create: KeyExists is AlreadyExists',
        op: 'create',
        err: newKeyExistsError(key, 0),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"x\\" already exists","reason":"AlreadyExists","details":{"name":"x","kind":"pods"},"code":409}',
      },
      {
        name: 'create in a group: resource.group',
        op: 'create',
        gr: widgets,
        err: newKeyExistsError('/registry/example.com/widgets/x', 0),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"widgets.example.com \\"x\\" already exists","reason":"AlreadyExists","details":{"name":"x","group":"example.com","kind":"widgets"},"code":409}',
      },
      {
        name: 'get: KeyNotFound is NotFound',
        op: 'get',
        err: newKeyNotFoundError(key, 0),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}',
      },
      {
        name: 'update: ResourceVersionConflicts is Conflict naming the storage error',
        op: 'update',
        err: newResourceVersionConflictsError(key, 5),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods \\"x\\": StorageError: resource version conflicts, Code: 3, Key: /registry/pods/default/x, ResourceVersion: 5, AdditionalErrorMsg: \\u003cnil\\u003e","reason":"Conflict","details":{"name":"x","kind":"pods"},"code":409}',
      },
      {
        name: 'delete: a failed precondition (InvalidObj) is Conflict',
        op: 'delete',
        err: newInvalidObjError(
          key,
          'Precondition failed: UID in precondition: a, UID in object meta: b',
        ),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods \\"x\\": StorageError: invalid object, Code: 4, Key: /registry/pods/default/x, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: a, UID in object meta: b","reason":"Conflict","details":{"name":"x","kind":"pods"},"code":409}',
      },
      {
        name: 'update: KeyNotFound is NotFound',
        op: 'update',
        err: newKeyNotFoundError(key, 0),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}',
      },
      {
        name: 'list: Unreachable is ServerTimeout, 2 s',
        op: 'list',
        err: newUnreachableError(key, 0),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The list operation against pods could not be completed at this time, please try again.","reason":"ServerTimeout","details":{"name":"list","kind":"pods","retryAfterSeconds":2},"code":500}',
      },
      {
        name: 'list: a storage Timeout is ServerTimeout too',
        op: 'list',
        err: newStorageTimeoutError(key, 'request did not complete within requested timeout'),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The list operation against pods could not be completed at this time, please try again.","reason":"ServerTimeout","details":{"name":"list","kind":"pods","retryAfterSeconds":2},"code":500}',
      },
      {
        name: 'get: a storage Timeout is not interpreted (a 500 without reason)',
        op: 'get',
        err: newStorageTimeoutError(key, 'slow'),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"StorageError: request timeout, Code: 6, Key: /registry/pods/default/x, ResourceVersion: 0, AdditionalErrorMsg: slow","code":500}',
      },
      {
        name: 'get: a corrupt object is InternalError',
        op: 'get',
        err: newCorruptObjError(key, new Error('bad data')),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: StorageError: corrupt object, Code: 7, Key: /registry/pods/default/x, ResourceVersion: 0, AdditionalErrorMsg: bad data","reason":"InternalError","details":{"causes":[{"message":"StorageError: corrupt object, Code: 7, Key: /registry/pods/default/x, ResourceVersion: 0, AdditionalErrorMsg: bad data"}]},"code":500}',
      },
      {
        // handleWatch does not interpret the watch's error: ErrorToAPIStatus's 500 with its text.
        name: 'watch: a storage InternalError is not interpreted (a 500 without reason)',
        op: 'watch',
        err: new StorageInternalError('boom'),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"boom","code":500}',
      },
      {
        name: "watch: the versioner's InvalidError is not interpreted (a 500 without reason)",
        op: 'watch',
        err: new InvalidError([
          invalid(
            FieldPath.of('resourceVersion'),
            'abc',
            'strconv.ParseUint: parsing "abc": invalid syntax',
          ),
        ]),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion: Invalid value: \\"abc\\": strconv.ParseUint: parsing \\"abc\\": invalid syntax","code":500}',
      },
      {
        name: 'a plain error is a 500 with no reason (ErrorToAPIStatus default)',
        op: 'create',
        err: new Error('resourceVersion should not be set on objects to be created'),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion should not be set on objects to be created","code":500}',
      },
      {
        name: 'a StatusError passes through',
        op: 'get',
        err: newBadRequest('Name parameter required.'),
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Name parameter required.","reason":"BadRequest","code":400}',
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const s = statusForError(c.err, c.gr ?? pods, 'x', c.op);
        assert.strictEqual(statusBody(s), c.body + '\n');
      });
    }
  });

  it('statusForError without an operation: exists -> AlreadyExists, conflicts -> Conflict', () => {
    assert.strictEqual(
      statusForError(newKeyExistsError(key, 0), pods, 'x').reason,
      'AlreadyExists',
    );
    assert.strictEqual(
      statusForError(newResourceVersionConflictsError(key, 0), pods, 'x').reason,
      'Conflict',
    );
    assert.strictEqual(statusForError(newKeyNotFoundError(key, 0), pods, 'x').code, 404);
  });

  it('a non-Error value still answers a 500', () => {
    const s = statusForError('weird', pods);
    assert.deepStrictEqual([s.code, s.message, s.reason], [500, 'weird', undefined]);
  });

  it('update with a stale resourceVersion: the optimistic lock Conflict', () => {
    assert.strictEqual(
      statusBody(statusForError(newOptimisticLockConflict(pods, 'x'), pods, 'x')),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on pods \\"x\\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"x","kind":"pods"},"code":409}\n',
    );
  });

  it('interpretStorageError leaves errors it does not know alone', () => {
    const e = new Error('x');
    for (const op of ['get', 'list', 'create', 'update', 'delete', 'watch'] as const)
      assert.strictEqual(interpretStorageError(op, e, pods, 'x'), e, op);
  });

  describe('apierrors constructors added for the HTTP face', () => {
    const cases: { name: string; status: () => unknown; body: string }[] = [
      {
        name: 'NewUnauthorized("")',
        status: () => newUnauthorized('').status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"not authorized","reason":"Unauthorized","code":401}',
      },
      {
        name: 'NewUnauthorized("Unauthorized")',
        status: () => newUnauthorized('Unauthorized').status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}',
      },
      {
        name: 'NewForbidden with a name',
        status: () => newForbidden(pods, 'x', new Error('no')).status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"x\\" is forbidden: no","reason":"Forbidden","details":{"name":"x","kind":"pods"},"code":403}',
      },
      {
        name: 'NewForbidden without a name',
        status: () => newForbidden(pods, '', new Error('no')).status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: no","reason":"Forbidden","details":{"kind":"pods"},"code":403}',
      },
      {
        name: 'NewForbidden without a resource',
        status: () => newForbidden({ group: '', resource: '' }, '', new Error('no')).status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: no","reason":"Forbidden","details":{},"code":403}',
      },
      {
        name: 'NewMethodNotSupported',
        status: () => newMethodNotSupported(widgets, 'watch').status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"watch is not supported on resources of kind \\"widgets.example.com\\"","reason":"MethodNotAllowed","details":{"group":"example.com","kind":"widgets"},"code":405}',
      },
      {
        name: 'NewRequestEntityTooLargeError (limitedReadBody)',
        status: () => newRequestEntityTooLargeError('limit is 3145728').status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Request entity too large: limit is 3145728","reason":"RequestEntityTooLarge","code":413}',
      },
      {
        name: 'NewGenerateNameConflict',
        status: () => newGenerateNameConflict(pods, 'web-abcde', 1).status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"web-abcde\\" already exists, the server was not able to generate a unique name for the object","reason":"AlreadyExists","details":{"name":"web-abcde","kind":"pods","retryAfterSeconds":1},"code":409}',
      },
      {
        name: 'negotiation: 406',
        status: () => newNotAcceptableError(['application/json', 'application/yaml']).status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"only the following media types are accepted: application/json, application/yaml","reason":"NotAcceptable","code":406}',
      },
      {
        name: 'negotiation: 415',
        status: () => newUnsupportedMediaTypeError(['application/json', 'application/yaml']).status,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the body of the request was in an unknown format - accepted media types include: application/json, application/yaml","reason":"UnsupportedMediaType","code":415}',
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        assert.strictEqual(
          statusBody(c.status() as Parameters<typeof statusBody>[0]),
          c.body + '\n',
        );
      });
    }
  });

  it('statusBody escapes HTML as encoding/json does (a hostile name is data)', () => {
    const s = statusForError(newKeyNotFoundError(key, 0), pods, '<script>', 'get');
    assert.ok(statusBody(s).includes('"message":"pods \\"\\u003cscript\\u003e\\" not found"'));
  });
});
