// The shared watch cases (test/unit/storagetesting/watch-tests.ts: pkg/storage/testing's
// watcher_tests.go, over the etcd3 store and the cacher, both profiles) over a real etcd 3.4, on a
// NamespacedEtcd view per case (see harness/ported-etcd.ts). The 1.37 profile's store finds no
// RangeStream there and pages, as it would against any etcd before 3.7. Registered over the model
// only: TestWatchChanSyncStreamMatchesPaginated, TestWatchChanSyncStreamCompactionError and
// TestWatchChanSyncStreamMetrics' success case, which need RangeStream (etcd 3.7; 3.4 answers
// Unimplemented). Not here, as they make no etcd call (MockStorage): TestWatchListSemanticsSimple
// and TestCacheWatcherStoppedOnDestroy (watch-cacher.test.ts).
import { watchCacherCases } from '../unit/storagetesting/watch-cacher-cases';
import { watchEtcd3Cases } from '../unit/storagetesting/watch-etcd3-cases';
import { describeOverRealEtcd } from './harness/ported-etcd';

describeOverRealEtcd('ported watch suites over etcd 3.4', (etcd) => {
  watchEtcd3Cases(etcd);
  watchCacherCases(etcd);
});
