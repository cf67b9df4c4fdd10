// Tests for src/server/write-options.ts: the options of create, update and patch as
// k8s.io/apimachinery pkg/apis/meta/v1/validation/validation_test.go (release-1.36) checks them,
// with the handlers' 422 text.
import * as assert from 'assert';
import {
  decodeWriteOptions,
  validateWriteOptions,
  type WriteOptions,
  type WriteOptionsKind,
} from '../../../src/server/write-options';

describe('write options (validation.ValidateCreateOptions, ValidateUpdateOptions, ValidatePatchOptions)', () => {
  const invalid = (kind: WriteOptionsKind, errs: string): string =>
    `${kind}.meta.k8s.io "" is invalid: ${errs}`;
  const kinds: WriteOptionsKind[] = ['CreateOptions', 'UpdateOptions', 'PatchOptions'];
  // [options, errors or undefined when valid], for every kind.
  const cases: Array<[WriteOptions, string | undefined]> = [
    [{}, undefined],
    [{ dryRun: ['All'], fieldManager: 'kubectl-label', fieldValidation: 'Strict' }, undefined],
    [{ fieldManager: 'm'.repeat(128) }, undefined],
    [{ fieldManager: 'm'.repeat(129) }, 'fieldManager: Too long: may not be more than 128 bytes'],
    // 43 three-byte runes: 129 bytes.
    [{ fieldManager: '€'.repeat(43) }, 'fieldManager: Too long: may not be more than 128 bytes'],
    [
      { fieldManager: 'a\u0007b' },
      'fieldManager: Invalid value: "a\\ab": invalid character U+0007 (at position 1)',
    ],
    [
      { fieldManager: '€\u0000' },
      'fieldManager: Invalid value: "€\\x00": invalid character U+0000 (at position 3)',
    ],
    [{ dryRun: ['Foo'] }, 'dryRun: Unsupported value: ["Foo"]: supported values: "All"'],
    [{ dryRun: ['All', ''] }, 'dryRun: Unsupported value: ["All",""]: supported values: "All"'],
    [
      { fieldValidation: 'Bogus' },
      'fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"',
    ],
    [
      { fieldManager: 'm'.repeat(200), dryRun: ['Foo'], fieldValidation: 'Bogus' },
      '[fieldManager: Too long: may not be more than 128 bytes, dryRun: Unsupported value: ["Foo"]: supported values: "All", fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"]',
    ],
  ];
  for (const kind of kinds)
    for (const [options, errs] of cases)
      it(`${kind} ${JSON.stringify(options)}`, () => {
        const err = validateWriteOptions(options, kind);
        if (errs === undefined) {
          assert.strictEqual(err, undefined);
          return;
        }
        assert.ok(err);
        assert.strictEqual(err.status.code, 422);
        assert.strictEqual(err.status.reason, 'Invalid');
        assert.strictEqual(err.status.message, invalid(kind, errs));
        assert.deepStrictEqual(
          [err.status.details?.group, err.status.details?.kind, err.status.details?.name],
          ['meta.k8s.io', kind, undefined],
        );
      });

  // ValidatePatchOptions' non-apply rule: force is forbidden (CreateOptions/UpdateOptions have none).
  const patchCases: Array<[WriteOptions, string]> = [
    [{ force: false }, 'force: Forbidden: may not be specified for non-apply patch'],
    [
      { force: true, dryRun: ['x'] },
      '[force: Forbidden: may not be specified for non-apply patch, dryRun: Unsupported value: ["x"]: supported values: "All"]',
    ],
  ];
  for (const [options, errs] of patchCases)
    it(`PatchOptions ${JSON.stringify(options)}`, () => {
      assert.strictEqual(
        validateWriteOptions(options, 'PatchOptions')?.status.message,
        invalid('PatchOptions', errs),
      );
    });

  it('decodes the query as the ParameterCodec does', () => {
    const q = new Map<string, string[]>([
      ['dryRun', ['All', 'All']],
      ['fieldManager', ['a', 'b']],
      ['fieldValidation', ['Strict']],
      ['force', ['no']],
    ]);
    assert.deepStrictEqual(decodeWriteOptions(q, 'PatchOptions'), {
      dryRun: ['All', 'All'],
      force: true,
      fieldManager: 'a',
      fieldValidation: 'Strict',
    });
    assert.strictEqual(
      decodeWriteOptions(new Map([['force', ['FALSE']]]), 'PatchOptions').force,
      false,
    );
    assert.strictEqual(decodeWriteOptions(q, 'CreateOptions').force, undefined);
  });
});
