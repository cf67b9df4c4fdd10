// No upstream counterpart: one sequence of watcher ids for every cacher of a run. Upstream numbers
// each cacher's watchers from 0 (cacher.go's watcherIdx, a key of its own watcher maps), and a
// restarted apiserver starts again from 0. Our faces name a watcher by its id alone (the run
// model folds a trace's watcher events by it, the debug state and `terminate-watcher --id` list
// it), so a run with watches on two resources, or across a cacher restart, would fold two
// watchers into one. The cachers of a run (and the cacher a restart makes) draw from one of these.

/** The next watcher id of a run: 0, 1, 2, … across all its cachers. */
export class WatcherIds {
  private last = -1;

  next(): number {
    return ++this.last;
  }
}
