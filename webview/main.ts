// The "List/Watch Inspector" webview: a renderer fed only by the host's typed messages
// (src/protocol.ts). It draws the run at the scrubber's virtual time and keeps its view state with
// vscode.setState so that hiding the panel or reloading the window loses nothing. No engine code
// here (ARCHITECTURE.md boundary 5). No upstream counterpart.
import './inspector.css';
import {
  defaultViewState,
  inspectorViews,
  normalizeViewState,
  protocolVersion,
  unhandledMessage,
  type FromWebview,
  type InspectorView,
  type InspectorViewState,
  type PanelModel,
  type RunIdentity,
  type ToWebview,
} from '../src/protocol';
import { formatVirtualTime } from '../src/run/views/watcher-states';
import { ClientsView } from './clients-view';
import { formatCount, plural } from '../src/format/count-text';
import { h, replaceChildren } from './dom';
import { ImportView } from './import-view';
import { ListsView } from './lists-view';
import { ReplayView } from './replay-view';
import { MetricsView } from './metrics-view';
import { SerializationView } from './serialization-view';
import { Timeline } from './timeline';
import { isRealTimeRun, probeScenario, runClockFacts } from '../src/run/views/run-clock';
import { button, progressRing, registerToolkit, tabs } from './toolkit';
import { WatchCacheView } from './watch-cache-view';
import { WatchersView } from './watchers-view';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: InspectorViewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: FromWebview) => vscode.postMessage(message);

// Problems are reported to the host (which logs them and shows them to tests), never swallowed.
const problems: string[] = [];
function problem(kind: 'csp' | 'error', message: string): void {
  problems.push(`${kind}: ${message}`);
  post({ type: 'webview/problem', kind, message });
}
document.addEventListener('securitypolicyviolation', (e) => {
  problem(
    'csp',
    `${e.violatedDirective} blocked ${e.blockedURI || 'inline code'} (${e.sourceFile}:${e.lineNumber})`,
  );
});
window.addEventListener('error', (e) =>
  problem('error', `${e.message} (${e.filename}:${e.lineno})`),
);

registerToolkit();

let state: InspectorViewState = normalizeViewState(vscode.getState() ?? defaultViewState);
let model: PanelModel | undefined;
let run: RunIdentity | undefined;
let nextDecodeId = 1;
let nextQueryId = 1;
// For the scale tests: when a run arrived, when its first rows were drawn, and message sizes.
const firstFrame: {
  runId?: string;
  loadedAt?: number;
  rowsAt?: number;
  /** Characters of the run's run/loaded message. */
  loadedSize?: number;
  /** The largest message of each type so far. */
  sizes: Record<string, number>;
} = { sizes: {} };

// Saving on every frame while playing would flood the host: the webview state is saved at once,
// the host is told at most every 250 ms.
let stateTimer: ReturnType<typeof setTimeout> | undefined;
function saveState(patch: Partial<InspectorViewState>): void {
  state = { ...state, ...patch };
  vscode.setState(state);
  if (stateTimer === undefined) {
    stateTimer = setTimeout(() => {
      stateTimer = undefined;
      post({ type: 'state/changed', state });
    }, 250);
  }
}

const viewTitles: Record<InspectorView, string> = {
  watchers: 'Watchers',
  watchCache: 'Watch cache',
  serialization: 'Serialization',
  lists: 'Lists',
  clients: 'Clients',
  metrics: 'Metrics',
  replay: 'Replay',
  import: 'Import',
};

const watchersView = new WatchersView({
  onSelect: (id) => {
    saveState({ selectedWatcherId: id });
    post({ type: 'watcher/select', id });
  },
  onFilterChange: (search, phase) =>
    saveState({ watcherSearch: search, watcherStateFilter: phase }),
  query: (at, query, from, count, reveal) => {
    const requestId = nextQueryId++;
    if (run)
      post({
        type: 'watchers/query',
        runId: run.id,
        requestId,
        at,
        query,
        from,
        count,
        ...(reveal !== undefined ? { reveal } : {}),
      });
    return requestId;
  },
  requestDetail: (id) => {
    if (run) post({ type: 'watcher/detail', runId: run.id, id });
  },
});
const watchCacheView = new WatchCacheView();
const serializationView = new SerializationView();
const listsView = new ListsView({
  onSelect: (id) => saveState({ selectedListId: id }),
  onDecode: (listId, token) => {
    const requestId = nextDecodeId++;
    post({
      type: 'token/decode',
      requestId,
      token,
      ...(run ? { list: { runId: run.id, id: listId } } : {}),
    });
    return requestId;
  },
});
const clientsView = new ClientsView({
  query: (search) => {
    const requestId = nextQueryId++;
    if (run) post({ type: 'clients/query', runId: run.id, requestId, search });
    return requestId;
  },
  onSelectWatcher: (id) => {
    tabBar.show('watchers');
    catchUp('watchers');
    saveState({ view: 'watchers', selectedWatcherId: id });
    watchersView.select(id);
    post({ type: 'watcher/select', id });
  },
  onSelectList: (id) => {
    tabBar.show('lists');
    catchUp('lists');
    saveState({ view: 'lists', selectedListId: id });
    listsView.select(id);
  },
});
const replayView = new ReplayView((id) => {
  tabBar.show('lists');
  catchUp('lists');
  saveState({ view: 'lists', selectedListId: id });
  listsView.select(id);
});
const importView = new ImportView();
const metricsView = new MetricsView({
  onCopy: () => post({ type: 'metrics/copy' }),
  onSearch: (text) => saveState({ metricsSearch: text }),
});

const timeline = new Timeline({
  onSeek: (at) => {
    saveState({ at });
    setTime(at);
  },
  onSpeed: (speed) => saveState({ speed }),
});

const tabBar = tabs({
  label: 'Inspector views',
  tabs: inspectorViews.map((id) => ({ id, title: viewTitles[id] })),
  active: state.view,
  onChange: (id) => {
    catchUp(id as InspectorView);
    saveState({ view: id as InspectorView });
  },
});
tabBar.panel('watchers').appendChild(watchersView.element);
tabBar.panel('watchCache').appendChild(watchCacheView.element);
tabBar.panel('serialization').appendChild(serializationView.element);
tabBar.panel('lists').appendChild(listsView.element);
tabBar.panel('clients').appendChild(clientsView.element);
tabBar.panel('metrics').appendChild(metricsView.element);
tabBar.panel('replay').appendChild(replayView.element);
tabBar.panel('import').appendChild(importView.element);

const header = h('header', { class: 'run-header' });
const progress = h('div', { class: 'progress', attrs: { role: 'status', 'aria-live': 'polite' } });
progress.hidden = true;
const content = h('main', { class: 'content' }, timeline.element, tabBar.element);
const empty = h(
  'section',
  { class: 'empty', attrs: { 'aria-label': 'No run open' } },
  h('h1', { text: 'List/Watch Inspector' }),
  h('p', {
    text: 'No run is open. Run a built-in scenario, or open a trace file (JSON lines) recorded earlier.',
  }),
  h(
    'div',
    { class: 'empty-actions' },
    button(
      {
        label: 'Run Scenario…',
        appearance: 'primary',
        onClick: () => post({ type: 'command/run', command: 'runScenario' }),
      },
      'Run Scenario…',
    ),
    button(
      {
        label: 'Open Trace…',
        appearance: 'secondary',
        onClick: () => post({ type: 'command/run', command: 'openTrace' }),
      },
      'Open Trace…',
    ),
  ),
);
document.body.append(progress, header, empty, content);
showRun(undefined);

// Only the tab on screen follows the scrubber frame by frame; the others catch up when shown.
const timeFollowers: Record<InspectorView, ((at: number) => void) | undefined> = {
  watchers: (at) => watchersView.setTime(at),
  watchCache: (at) => watchCacheView.setTime(at),
  serialization: (at) => serializationView.setTime(at),
  lists: (at) => listsView.setTime(at),
  clients: (at) => clientsView.setTime(at),
  metrics: (at) => metricsView.setTime(at),
  replay: undefined,
  import: undefined,
};
const behind = new Set<InspectorView>();

function setTime(at: number): void {
  for (const view of inspectorViews) {
    if (view === tabBar.active()) timeFollowers[view]?.(at);
    else behind.add(view);
  }
}

function catchUp(view: InspectorView): void {
  if (stale.delete(view)) {
    // A live run grew while the tab was hidden: it takes the model now (at the scrubber's time).
    behind.delete(view);
    if (model) modelFollowers[view](model, timeline.time());
    return;
  }
  if (!behind.delete(view)) return;
  timeFollowers[view]?.(timeline.time());
}

// A live run's batches: the tab on screen takes each new model at once, the others when shown.
const modelFollowers: Record<InspectorView, (m: PanelModel, at: number) => void> = {
  watchers: (m, at) => watchersView.updateRun(m, at),
  watchCache: (m, at) => watchCacheView.setRun(m, at),
  serialization: (m, at) => serializationView.setRun(m, at),
  clients: (m, at) => clientsView.updateRun(m, at),
  lists: (m, at) => {
    // The table and the selected LIST's detail are drawn again only when a LIST came or ended.
    const ended = m.lists.reduce((n, l) => n + (l.endedAt === undefined ? 0 : 1), 0);
    const signature = `${m.lists.length}/${ended}`;
    if (signature === listsSignature) return listsView.setTime(at);
    listsSignature = signature;
    listsView.setRun(m, at, state.selectedListId);
  },
  metrics: (m, at) => metricsView.setRun(m, at, state.metricsSearch),
  replay: (m) => replayView.setRun(m),
  import: (m) => importView.setRun(m),
};
const stale = new Set<InspectorView>();
/** The LISTs the Lists view was last given (a live run's count, and how many had ended). */
let listsSignature = '';
// For the live-run tests: ms each of the last 100 batches took to apply here (host work excluded).
const updateCosts: number[] = [];

/** The open live run grew: every view keeps its time, selection and filters, the timeline grows. */
function updateRun(m: PanelModel): void {
  if (!run) return;
  model = m;
  renderHeader(run, m);
  const at = Math.min(timeline.time(), m.durationMs);
  for (const view of inspectorViews) {
    if (view === tabBar.active()) modelFollowers[view](m, at);
    else stale.add(view);
  }
  // Following now moves the scrubber to the new end (and the views with it).
  timeline.grow(m.durationMs, m.timeline, m.phases ?? [], m.faults ?? []);
}

/**
 * The open live run is at `at` now with nothing new: only its end moves (the header's length, the
 * timeline, and the scrubber when it follows now); the views at any time up to `at` are as they
 * were at the last update's end.
 */
function nowRun(at: number): void {
  if (!run || !model || at <= model.durationMs) return;
  model = { ...model, durationMs: at };
  renderHeader(run, model);
  // The charts span the run (Watch cache, Serialization): their time axis grows to now with the
  // header's length (nothing new happened: each gauge held its value), not only at the next batch.
  if (tabBar.active() === 'watchCache') watchCacheView.setRun(model, Math.min(timeline.time(), at));
  else stale.add('watchCache');
  if (tabBar.active() === 'serialization') serializationView.setDurationMs(at);
  else stale.add('serialization');
  timeline.grow(at, model.timeline, model.phases ?? [], model.faults ?? []);
}

function renderHeader(identity: RunIdentity, m: PanelModel): void {
  const params = Object.entries(m.header.params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  const probe = m.header.scenario === probeScenario;
  // A live run (open, or its saved trace) is on real time: no seed, no "virtual".
  const facts = [
    ...(probe ? [`probe of ${String(m.header.params.server)}`] : []),
    ...runClockFacts(m.header, formatVirtualTime(m.durationMs), m.imported?.span),
    plural(m.watcherCount, 'watcher'),
    ...(m.failedWatchCount ? [plural(m.failedWatchCount, 'refused watch request')] : []),
    plural(m.lists.length, 'LIST'),
  ];
  const children: Array<Node> = [
    h('h1', { text: identity.title }),
    h('p', { class: 'run-facts', text: facts.join(' · ') }),
  ];
  if (params)
    children.push(h('p', { class: 'run-params', text: params, attrs: { title: params } }));
  if (identity.file) children.push(h('p', { class: 'run-params', text: `trace ${identity.file}` }));
  if (m.rejected.count > 0) {
    children.push(
      h(
        'div',
        { class: 'banner warning', attrs: { role: 'alert' } },
        h('strong', {
          text: `${formatCount(m.rejected.count)} trace line${m.rejected.count === 1 ? ' was' : 's were'} rejected while reading. `,
        }),
        h('ul', {}, ...m.rejected.samples.map((sample) => h('li', { text: sample }))),
      ),
    );
  }
  replaceChildren(header, ...children);
}

function showRun(identity: RunIdentity | undefined, m?: PanelModel): void {
  run = identity;
  model = m;
  const has = !!identity && !!m;
  empty.hidden = has;
  content.hidden = !has;
  header.hidden = !has;
  if (!identity || !m) return;
  // The Import tab exists for runs imported from logs only.
  setImportTab(!!m.imported);
  if (!m.imported && state.view === 'import') state = { ...state, view: 'watchers' };
  if (state.runId !== identity.id) {
    // Another run: the time and the selections of the previous one mean nothing here. A new run
    // opens at its end, where everything has happened; the timeline goes back from there.
    state = {
      ...state,
      runId: identity.id,
      at: m.durationMs,
      view: identity.storyView ?? state.view,
      selectedWatcherId: undefined,
      selectedListId: undefined,
    };
  }
  firstFrame.runId = identity.id;
  firstFrame.loadedAt = Date.now();
  firstFrame.rowsAt = undefined;
  const at = Math.min(state.at, m.durationMs);
  saveState({ runId: identity.id, at });
  renderHeader(identity, m);
  timeline.setRun(
    m.durationMs,
    m.timeline,
    m.phases ?? [],
    m.faults ?? [],
    identity.source === 'live',
    identity.source === 'live' || isRealTimeRun(m.header.scenario),
  );
  saveState({ speed: timeline.setSpeed(state.speed) });
  watchersView.setRun(
    m,
    identity.id,
    at,
    state.watcherSearch,
    state.watcherStateFilter,
    state.selectedWatcherId,
  );
  watchCacheView.setRun(m, at);
  serializationView.setRun(m, at);
  listsView.setRun(m, at, state.selectedListId);
  clientsView.setRun(m, identity.id, at);
  metricsView.setRun(m, at, state.metricsSearch);
  replayView.setRun(m);
  importView.setRun(m);
  tabBar.show(state.view);
  behind.clear();
  stale.clear();
  listsSignature = '';
  // A live run opens following now (setRun did): the scrubber is at its end already.
  if (!timeline.isFollowing()) timeline.seek(at);
}

function setImportTab(shown: boolean): void {
  for (const id of ['tab-import', 'view-import']) {
    const el = document.getElementById(id);
    if (el) el.hidden = !shown;
  }
}

function restore(restored: InspectorViewState): void {
  state = { ...restored, runId: state.runId ?? restored.runId };
  vscode.setState(state);
  if (!model) return;
  timeline.setSpeed(state.speed);
  tabBar.show(state.view);
  catchUp(state.view);
  timeline.seek(Math.min(state.at, model.durationMs));
  if (state.selectedWatcherId) watchersView.select(state.selectedWatcherId);
  if (state.selectedListId) listsView.select(state.selectedListId);
}

function showProgress(fraction: number, message: string, done: boolean): void {
  progress.hidden = done;
  if (done) return;
  const bar = h('span', { class: 'progress-bar' });
  bar.style.width = `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)}%`;
  replaceChildren(
    progress,
    progressRing('Working'),
    h('span', { text: message }),
    h('span', { class: 'progress-track' }, bar),
  );
}

function receive(message: ToWebview): void {
  switch (message.type) {
    case 'run/loaded':
      showRun(message.run, message.model);
      break;
    case 'run/update':
      if (run?.id === message.runId) {
        const t = performance.now();
        updateRun(message.model);
        updateCosts.push(performance.now() - t);
        if (updateCosts.length > 100) updateCosts.shift();
      }
      break;
    case 'run/now':
      if (run?.id === message.runId) nowRun(message.at);
      break;
    case 'run/none':
      showRun(undefined);
      break;
    case 'run/progress':
      showProgress(message.fraction, message.message, message.done);
      break;
    case 'timeline/seek':
      timeline.pause();
      timeline.seek(message.at);
      break;
    case 'watcher/select':
      tabBar.show('watchers');
      catchUp('watchers');
      saveState({ view: 'watchers', selectedWatcherId: message.id });
      watchersView.select(message.id);
      break;
    case 'view/show':
      tabBar.show(message.view);
      catchUp(message.view);
      saveState({ view: message.view });
      break;
    case 'watchers/rows':
      watchersView.setRows(message.runId, message);
      if (message.runId === firstFrame.runId && firstFrame.rowsAt === undefined)
        // Drawn: the frame after the rows went into the table.
        requestAnimationFrame(() => {
          firstFrame.rowsAt ??= Date.now();
        });
      break;
    case 'watcher/detail':
      watchersView.setDetail(message.runId, message.id, message);
      break;
    case 'clients/rows':
      clientsView.setClients(message.runId, message);
      break;
    case 'token/explained':
      listsView.showExplanation(message.requestId, message.explanation);
      break;
    case 'metrics/copied':
      metricsView.copied(message.ok, message.message);
      break;
    case 'state/restore':
      restore(normalizeViewState(message.state));
      break;
    case 'protocol/mismatch':
      replaceChildren(
        header,
        h('div', {
          class: 'banner error',
          attrs: { role: 'alert' },
          text: `This panel speaks protocol ${message.webviewVersion}, the extension ${message.hostVersion}: close and reopen the inspector.`,
        }),
      );
      header.hidden = false;
      break;
    default:
      unhandledMessage(message);
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const data: unknown = event.data;
  if (!data || typeof data !== 'object' || typeof (data as { type?: unknown }).type !== 'string')
    return;
  try {
    const type = (data as { type: string }).type;
    const size = JSON.stringify(data).length;
    firstFrame.sizes[type] = Math.max(firstFrame.sizes[type] ?? 0, size);
    if (type === 'run/loaded') firstFrame.loadedSize = size;
    receive(data as ToWebview);
  } catch (error) {
    problem(
      'error',
      `handling ${(data as { type: string }).type}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
});

// Keyboard: the tabs handle arrows themselves; these work from anywhere outside a text field.
document.addEventListener('keydown', (e) => {
  const target = e.target as HTMLElement | null;
  if (target && /^(INPUT|TEXTAREA|VSCODE-TEXT-FIELD)$/.test(target.tagName)) return;
  if (!model) return;
  if (e.key === '.' || e.key === '>') {
    timeline.step(1);
    e.preventDefault();
  } else if (e.key === ',' || e.key === '<') {
    timeline.step(-1);
    e.preventDefault();
  }
});

post({ type: 'ready', protocolVersion });
// Exposed for debugging in the webview's developer tools and for the UI tests (read-only figures).
(window as unknown as { listwatchInspector: unknown }).listwatchInspector = {
  run: () => run,
  following: () => timeline.isFollowing(),
  updateCosts: () => [...updateCosts],
  time: () => timeline.time(),
  durationMs: () => model?.durationMs,
  watcherTable: () => watchersView.stats(),
  clientRows: () => clientsView.rows(),
  importRows: () => importView.rows(),
  firstFrame: () => ({ ...firstFrame, sizes: { ...firstFrame.sizes } }),
  problems: () => [...problems],
};
