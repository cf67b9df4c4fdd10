// Runs store-get-list-recursive-prefix-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeGetListRecursivePrefixCases } from './store-get-list-recursive-prefix-cases';

storeGetListRecursivePrefixCases(memoryEtcd);
