// The shared store cases (test/unit/storagetesting/store-*-cases.ts: pkg/storage/testing's
// store_tests.go over the etcd3 store and the cacher) over a real etcd 3.4, on a NamespacedEtcd
// view per case (see harness/ported-etcd.ts). None is registered over the model only. Not here, as
// they make no etcd call: TestPrefix (store-prefix.test.ts) and TestFilterWithAttrsAndPrefixFunction
// with sharding.HashField (store-filter-with-attrs-and-prefix.test.ts).
import { storeConsistencyCheckerCases } from '../unit/storagetesting/store-consistency-checker-cases';
import { storeConsistentListCases } from '../unit/storagetesting/store-consistent-list-cases';
import { storeGetListNonRecursiveCases } from '../unit/storagetesting/store-get-list-non-recursive-cases';
import { storeGetListRecursivePrefixCases } from '../unit/storagetesting/store-get-list-recursive-prefix-cases';
import { storeKeySchemaCases } from '../unit/storagetesting/store-key-schema-cases';
import { storeListResourceVersionMatchCases } from '../unit/storagetesting/store-list-resource-version-match-cases';
import { storeMarkConsistentCases } from '../unit/storagetesting/store-mark-consistent-cases';
import { storeNamespaceScopedListCases } from '../unit/storagetesting/store-namespace-scoped-list-cases';
import { storeUnderTestCases } from '../unit/storagetesting/store-under-test-cases';
import { describeOverRealEtcd } from './harness/ported-etcd';

describeOverRealEtcd('ported store suites over etcd 3.4', (etcd) => {
  storeUnderTestCases(etcd);
  storeConsistencyCheckerCases(etcd);
  storeConsistentListCases(etcd);
  storeGetListNonRecursiveCases(etcd);
  storeGetListRecursivePrefixCases(etcd);
  storeKeySchemaCases(etcd);
  storeListResourceVersionMatchCases(etcd);
  storeMarkConsistentCases(etcd);
  storeNamespaceScopedListCases(etcd);
});
