// Runs store-namespace-scoped-list-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeNamespaceScopedListCases } from './store-namespace-scoped-list-cases';

storeNamespaceScopedListCases(memoryEtcd);
