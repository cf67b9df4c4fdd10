// Runs store-list-cases.ts over the in-memory etcd; test/etcd/ported-etcd3.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeListCases } from './store-list-cases';

storeListCases(memoryEtcd);
