// Runs store-key-schema-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeKeySchemaCases } from './store-key-schema-cases';

storeKeySchemaCases(memoryEtcd);
