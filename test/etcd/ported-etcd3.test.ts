// The etcd3 store and watcher suites (test/unit/etcd3/*-cases.ts) over a real etcd 3.4: the cases
// the unit suite runs over the in-memory etcd, on a NamespacedEtcd view per case (see
// harness/ported-etcd.ts). Registered over the model only, each with its reason:
// - RunTestList (1.37 preview: EtcdRangeStream on, etcd supports RangeStream), both cases;
//   the paging property's RangeStream run; store-stream's shouldStream, same-items-as-paging,
//   TestGetListStreamMultiChunk, testListMetrics with RangeStream and the compacted/future stream;
//   the watcher's sync through one RangeStream (etcd: supported): RangeStream is etcd 3.7's, and
//   3.4 answers Unimplemented (TestGetListStreamFallsBackToPaginated runs here up to the in-place
//   upgrade only the model can do).
// - the watcher's progress notifications as BOOKMARKs: its ticker runs in virtual time; a real
//   etcd ticks on its own clock (--experimental-watch-progress-notify-interval).
import { storeListCases } from '../unit/etcd3/store-list-cases';
import { storeObjectsCases } from '../unit/etcd3/store-objects-cases';
import { storePagingCases } from '../unit/etcd3/store-paging-cases';
import { storePagingPropertyCases } from '../unit/etcd3/store-paging-property-cases';
import { storeStreamCases } from '../unit/etcd3/store-stream-cases';
import { watcherCases } from '../unit/etcd3/watcher-cases';
import { describeOverRealEtcd } from './harness/ported-etcd';

describeOverRealEtcd('ported etcd3 suites over etcd 3.4', (etcd) => {
  storeListCases(etcd);
  storeObjectsCases(etcd);
  storePagingCases(etcd);
  storePagingPropertyCases(etcd);
  storeStreamCases(etcd);
  watcherCases(etcd);
});
