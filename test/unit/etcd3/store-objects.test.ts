// Runs store-objects-cases.ts over the in-memory etcd; test/etcd/ported-etcd3.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeObjectsCases } from './store-objects-cases';

storeObjectsCases(memoryEtcd);
