// Tests for the RequestWatchProgress version rule (feature_support_checker.go's
// endpointSupportsRequestWatchProgress), with the versions of upstream's
// TestSupports/TestCheckClient tables (feature_support_checker_test.go, release-1.36).
import * as assert from 'assert';
import {
  membersSupportRequestWatchProgress,
  versionSupportsRequestWatchProgress,
} from '../../../src/engine/etcd3/feature-support-checker';

describe('RequestWatchProgress by etcd version (endpointSupportsRequestWatchProgress)', () => {
  it('one member', () => {
    const cases: [string, boolean][] = [
      ['3.4.31', true],
      ['3.5.13', true],
      ['3.6.0', true],
      ['3.4.30', false],
      ['3.4.23', false],
      ['3.5.0', false],
      ['3.5.12', false],
      ['3.7.0-alpha.0', true],
      ['v3.6.1', true],
      ['not-a-version', false],
      ['', false],
    ];
    for (const [version, want] of cases)
      assert.strictEqual(versionSupportsRequestWatchProgress(version), want, version);
  });

  it('every member must support it; none checked is not supported', () => {
    const cases: [string[], boolean][] = [
      [['3.5.13', '3.5.10'], false],
      [['3.5.9', '3.5.10'], false],
      [['3.4.31', '3.5.13', '3.5.14', '3.6.0'], true],
      [[], false],
    ];
    for (const [versions, want] of cases)
      assert.strictEqual(membersSupportRequestWatchProgress(versions), want, versions.join(','));
  });
});
