// Mirrors k8s.io/apiserver pkg/storage/etcd3/watcher.go (release-1.36): watchChan's resultChan,
// the watch.Interface the etcd3 store hands a registry whose storage is undecorated (no cacher, as
// for events). Deliberate difference: our watchChan queues its events without bound
// (StorageWatch); this bounds what the client sees to outgoingBufSize, the rest waiting in order.
import { Channel } from '../cacher/channel';
import type { WatchEvent, WatchInterface, WatchObject } from '../cacher/watch';
import type { StorageWatch } from './watcher';

/** watcher.go outgoingBufSize: the result channel's capacity. */
export const outgoingBufSize = 100;

/** `w` as a watch.Interface: its events in order through a channel of outgoingBufSize. */
export function watchResultChan(w: StorageWatch): WatchInterface {
  const result = new Channel<WatchEvent>(outgoingBufSize);
  const pending: WatchEvent[] = [];
  let sending = false;
  let ended = false;
  const pump = (): void => {
    while (!sending && pending.length > 0 && !result.closed) {
      if (result.trySend(pending[0])) {
        pending.shift();
        continue;
      }
      sending = true;
      result.waitSend(pending[0], (sent) => {
        sending = false;
        if (sent) pending.shift();
        pump();
      });
    }
    if (ended && pending.length === 0 && !result.closed) result.close();
  };
  void (async () => {
    for await (const e of w) {
      pending.push({ type: e.type, object: e.object as WatchObject });
      pump();
    }
    ended = true;
    pump();
  })();
  return {
    resultChan: () => result,
    stop: () => {
      w.stop();
      pending.length = 0;
      if (!result.closed) result.close();
    },
  };
}
