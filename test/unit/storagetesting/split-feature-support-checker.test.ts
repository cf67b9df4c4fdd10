// Ports TestSupports and TestMarkUnsupported (k8s.io/apiserver
// pkg/storage/feature/feature_support_checker_test.go, master 24a394e5) to
// src/engine/etcd3/feature-support-checker.ts, on a FakeClock.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import {
  FeatureSupportChecker,
  rangeStreamRecheckInterval,
  type StorageFeature,
} from '../../../src/engine/etcd3/feature-support-checker';

describe('split: FeatureSupportChecker (feature_support_checker_test.go, master)', () => {
  describe('TestSupports', () => {
    const tests: { testName: string; featureName: string; expectedResult?: boolean }[] = [
      { testName: 'Disabled - with unknown feature', featureName: 'some unknown feature' },
      { testName: 'Disabled - with empty feature', featureName: '' },
      {
        testName: 'Disabled - default',
        featureName: 'RequestWatchProgress',
        expectedResult: false,
      },
      {
        testName: 'Enabled - RangeStream defaults to supported until proven otherwise',
        featureName: 'RangeStream',
        expectedResult: true,
      },
    ];
    for (const tt of tests) {
      it(tt.testName, () => {
        const testFeatureSupportChecker = new FeatureSupportChecker(new FakeClock());
        // storage.Feature is a string upstream: any name can be asked for.
        const supported = testFeatureSupportChecker.supports(tt.featureName as StorageFeature);
        assert.strictEqual(supported, tt.expectedResult ?? false);
      });
    }
  });

  it('TestMarkUnsupported', () => {
    const fakeClock = new FakeClock(Date.UTC(2026, 0, 1));
    const f = new FeatureSupportChecker(fakeClock);

    assert.strictEqual(f.supports('RangeStream'), true);

    f.markUnsupported('RangeStream');
    assert.strictEqual(f.supports('RangeStream'), false);

    fakeClock.step(rangeStreamRecheckInterval - 1000);
    assert.strictEqual(f.supports('RangeStream'), false);

    fakeClock.step(2 * 1000);
    assert.strictEqual(f.supports('RangeStream'), true);
  });
});
