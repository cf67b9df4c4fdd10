// Runs store-get-list-non-recursive-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeGetListNonRecursiveCases } from './store-get-list-non-recursive-cases';

storeGetListNonRecursiveCases(memoryEtcd);
