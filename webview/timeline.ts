// The timeline scrubber over the run's virtual time: play, pause, step to the previous/next moment
// something happened, speeds that fit the run's length, and an ARIA slider drawn in our own SVG:
// the scenario's phases as bands with their names, the faults injected into a live server as
// named markers, the run's activity as a histogram, and a time axis with ticks under it. A live
// run's timeline grows as batches arrive and follows now until the user scrubs back ("Follow now"
// turns it on again). No upstream counterpart.
import {
  nearestSpeed,
  playbackSpeedsFor,
  speedLabel,
  timeTicks,
} from '../src/run/views/timeline-scale';
import { formatVirtualTime, lastIndexAtOrBefore } from '../src/run/views/watcher-states';
import type { TimelineSummary } from '../src/protocol';
import { h, s, perFrame, replaceChildren } from './dom';
import { button, dropdown, type DropdownHandle } from './toolkit';

export interface TimelineOptions {
  /** The scrubber moved (by the user, by playback or by following a live run's end). */
  onSeek(at: number): void;
  onSpeed(speed: number): void;
  /** Following now was turned on or off (live runs only). */
  onFollow?(following: boolean): void;
}

/** A named instant drawn on the track: a phase starts, a fault was injected. */
export interface TimelineMark {
  at: number;
  name: string;
  text: string;
}

function icon(d: string): SVGSVGElement {
  return s(
    'svg',
    { class: 'icon', viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true' },
    s('path', { d, fill: 'currentColor' }),
  );
}

const icons = {
  play: 'M4 2.5v11l9-5.5z',
  pause: 'M4 2.5h3v11H4zM9 2.5h3v11H9z',
  stepBack: 'M3 2.5h2v11H3zM14 2.5v11L6 8z',
  stepForward: 'M11 2.5h2v11h-2zM2 2.5v11L10 8z',
  start: 'M2 2.5h2v11H2zM14 2.5v11L5 8z',
  end: 'M12 2.5h2v11h-2zM2 2.5v11L11 8z',
};

// Slider geometry in SVG units (the viewBox is stretched horizontally to the element's width).
const trackHeight = 36;
/** Fault names: lines at most, the line height (the CSS's 1.3em) and the room between two names. */
const maxFaultLabelLines = 3;
const faultLabelLineEm = 1.3;
const faultLabelGapPx = 6;
// Ticks on the axis at most (fewer when the panel is narrow).
const maxTicks = 9;

export class Timeline {
  readonly element: HTMLElement;
  private readonly options: TimelineOptions;
  private readonly slider: SVGSVGElement;
  private readonly activity: SVGPathElement;
  private readonly progress: SVGRectElement;
  private readonly cursor: SVGLineElement;
  private readonly timeText: HTMLElement;
  private readonly phaseText: HTMLElement;
  private readonly phaseMarks: SVGGElement;
  private readonly phaseBands: SVGGElement;
  private readonly axis: HTMLElement;
  private readonly phaseLabels: HTMLElement;
  private readonly instantNote: HTMLElement;
  private readonly faultMarks: SVGGElement;
  private readonly faultLabels: HTMLElement;
  private readonly followButton: HTMLElement;
  private phases: TimelineMark[] = [];
  private faults: TimelineMark[] = [];
  /** A live run: its end is now, and the scrubber may follow it. */
  private live = false;
  /** The run's times are real time, not virtual. */
  private realTime = false;
  private following = false;
  private readonly playButton: HTMLElement;
  private readonly speedDropdown: DropdownHandle;
  private speeds: number[] = [];
  private durationMs = 0;
  /** Distinct moments something happened, ascending: the stops of step back/forward. */
  private moments: number[] = [];
  private at = 0;
  private speed = 10;
  private playing = false;
  private lastFrame = 0;
  private readonly draw: () => void;

  constructor(options: TimelineOptions) {
    this.options = options;
    this.draw = perFrame(() => this.redraw());
    this.playButton = button(
      { label: 'Play', appearance: 'icon', onClick: () => this.togglePlay() },
      icon(icons.play),
    );
    const toStart = button(
      { label: 'Go to the start', appearance: 'icon', onClick: () => this.userSeek(0) },
      icon(icons.start),
    );
    const back = button(
      {
        label: 'Step back to the previous event',
        appearance: 'icon',
        onClick: () => this.step(-1),
      },
      icon(icons.stepBack),
    );
    const forward = button(
      { label: 'Step forward to the next event', appearance: 'icon', onClick: () => this.step(1) },
      icon(icons.stepForward),
    );
    this.followButton = button(
      { label: 'Follow now', appearance: 'icon', onClick: () => this.setFollowing(true) },
      icon(icons.end),
    );
    this.followButton.classList.add('tl-follow');
    this.followButton.hidden = true;
    this.speedDropdown = dropdown({
      label: 'Playback speed',
      choices: [],
      value: '',
      onChange: (v) => {
        this.speed = Number(v) || this.speed;
        this.options.onSpeed(this.speed);
      },
    });
    this.speedDropdown.element.classList.add('speed');
    this.activity = s('path', { class: 'tl-activity', d: '' });
    this.progress = s('rect', {
      class: 'tl-progress',
      x: 0,
      y: trackHeight - 6,
      width: 0,
      height: 3,
    });
    this.cursor = s('line', { class: 'tl-cursor', x1: 0, x2: 0, y1: 2, y2: trackHeight - 2 });
    this.slider = s(
      'svg',
      {
        class: 'tl-slider',
        role: 'slider',
        tabindex: 0,
        'aria-label': 'Virtual time',
        'aria-valuemin': 0,
        'aria-valuemax': 0,
        'aria-valuenow': 0,
        preserveAspectRatio: 'none',
        viewBox: `0 0 1000 ${trackHeight}`,
        height: trackHeight,
      },
      s('rect', { class: 'tl-track', x: 0, y: trackHeight - 6, width: 1000, height: 3 }),
      this.activity,
      this.progress,
      this.cursor,
    );
    this.timeText = h('span', { class: 'tl-time', attrs: { 'aria-live': 'off' } });
    this.phaseText = h('div', { class: 'tl-phase', attrs: { 'aria-live': 'polite' } });
    this.phaseMarks = s('g', { class: 'tl-phase-marks' });
    this.phaseBands = s('g', { class: 'tl-phase-bands' });
    this.faultMarks = s('g', { class: 'tl-fault-marks' });
    this.slider.insertBefore(this.phaseBands, this.slider.firstChild);
    this.slider.appendChild(this.phaseMarks);
    this.slider.appendChild(this.faultMarks);
    this.faultLabels = h('div', { class: 'tl-fault-labels', attrs: { 'aria-hidden': 'true' } });
    this.faultLabels.hidden = true;
    this.axis = h('div', { class: 'tl-axis', attrs: { 'aria-hidden': 'true' } });
    this.phaseLabels = h('div', { class: 'tl-phase-labels', attrs: { 'aria-hidden': 'true' } });
    this.instantNote = h('div', { class: 'tl-instant hint' });
    this.instantNote.hidden = true;
    this.element = h(
      'div',
      { class: 'timeline', attrs: { role: 'group', 'aria-label': 'Timeline' } },
      h(
        'div',
        { class: 'tl-buttons' },
        toStart,
        back,
        this.playButton,
        forward,
        this.followButton,
        this.speedDropdown.element,
      ),
      h(
        'div',
        { class: 'tl-track-wrap' },
        this.phaseLabels,
        this.faultLabels,
        this.slider,
        this.axis,
      ),
      this.timeText,
      this.phaseText,
      this.instantNote,
    );
    // Fewer ticks when narrow: labels never crowd each other.
    new ResizeObserver(() => this.drawAxis()).observe(this.axis);
    // Fault names that would overlap go on another line (they come in bursts: two faults a
    // tenth of a second apart wrote one name over the other).
    new ResizeObserver(() => this.stackFaultLabels()).observe(this.axis);
    this.slider.addEventListener('keydown', (e) => this.onKey(e));
    this.slider.addEventListener('pointerdown', (e) => {
      this.slider.setPointerCapture(e.pointerId);
      this.seekToPointer(e);
      const move = (m: PointerEvent) => this.seekToPointer(m);
      const up = () => {
        this.slider.removeEventListener('pointermove', move);
        this.slider.removeEventListener('pointerup', up);
      };
      this.slider.addEventListener('pointermove', move);
      this.slider.addEventListener('pointerup', up);
    });
  }

  /**
   * A new run: its length, the moments to step through and the activity (computed by the host),
   * the scenario's phases (the narrative: bands on the track, named above it) and the faults
   * injected (named markers). A live run starts following now.
   */
  setRun(
    durationMs: number,
    summary: TimelineSummary,
    phases: TimelineMark[] = [],
    faults: TimelineMark[] = [],
    live = false,
    /** The run's times are real time (a live run, open or saved): the slider says so. */
    realTime = live,
  ): void {
    this.pause();
    this.live = live;
    this.realTime = realTime;
    this.slider.setAttribute(
      'aria-label',
      realTime ? 'Real time since the run began' : 'Virtual time',
    );
    this.following = false;
    this.drawRun(durationMs, summary, phases, faults);
    this.setFollowing(live);
  }

  /**
   * The live run grew: everything is drawn again for its new length, playback and the scrubber
   * left alone, except that a timeline following now moves to the new end.
   */
  grow(
    durationMs: number,
    summary: TimelineSummary,
    phases: TimelineMark[] = [],
    faults: TimelineMark[] = [],
  ): void {
    this.drawRun(durationMs, summary, phases, faults);
    if (this.following) this.seek(this.durationMs);
  }

  isFollowing(): boolean {
    return this.following;
  }

  /** Follows the live run's end (on), or stays where the scrubber is (off). */
  setFollowing(on: boolean): void {
    const following = this.live && on;
    this.followButton.hidden = !this.live;
    this.followButton.classList.toggle('active', following);
    this.followButton.setAttribute('aria-pressed', String(following));
    const label = following ? 'Following now' : 'Follow now';
    this.followButton.setAttribute('aria-label', label);
    this.followButton.setAttribute('title', label);
    const changed = following !== this.following;
    this.following = following;
    if (following) {
      this.pause();
      this.seek(this.durationMs);
    }
    if (changed) this.options.onFollow?.(following);
  }

  private drawRun(
    durationMs: number,
    summary: TimelineSummary,
    phases: TimelineMark[],
    faults: TimelineMark[],
  ): void {
    this.durationMs = Math.max(0, durationMs);
    this.phases = [...phases].sort((a, b) => a.at - b.at);
    this.faults = [...faults].sort((a, b) => a.at - b.at);
    const x = (at: number) => (this.durationMs > 0 ? (at / this.durationMs) * 1000 : 0);
    this.phaseBands.replaceChildren(
      ...this.phases.map((p, i) => {
        const end = i + 1 < this.phases.length ? this.phases[i + 1].at : this.durationMs;
        return s('rect', {
          class: `tl-band ${i % 2 ? 'odd' : 'even'}`,
          x: x(p.at),
          y: 0,
          width: Math.max(0, x(end) - x(p.at)),
          height: trackHeight - 4,
        });
      }),
    );
    this.phaseMarks.replaceChildren(
      ...this.phases.map((p) =>
        s(
          'g',
          { class: 'tl-phase-mark' },
          s('title', {}, `${formatVirtualTime(p.at)} ${p.name}: ${p.text}`),
          s('line', { x1: x(p.at), x2: x(p.at), y1: 0, y2: trackHeight - 4 }),
        ),
      ),
    );
    this.faultMarks.replaceChildren(
      ...this.faults.map((f) =>
        s(
          'g',
          { class: 'tl-fault-mark' },
          s('title', {}, `${formatVirtualTime(f.at)} fault ${f.name}: ${f.text}`),
          s('line', { x1: x(f.at), x2: x(f.at), y1: 0, y2: trackHeight - 4 }),
        ),
      ),
    );
    // Each fault's name at its instant: what happened next (a 410, a relist) reads after it.
    replaceChildren(
      this.faultLabels,
      ...this.faults.map((f) => {
        const label = h('span', {
          class: 'tl-fault-label',
          text: f.name,
          attrs: { title: `${formatVirtualTime(f.at)} fault ${f.name}: ${f.text}` },
        });
        // Near the end a name reads leftwards from its marker (never cut off at the edge).
        const pct = x(f.at) / 10;
        if (pct > 70) {
          label.classList.add('end');
          label.style.right = `${100 - pct}%`;
        } else label.style.left = `${pct}%`;
        return label;
      }),
    );
    this.faultLabels.hidden = this.faults.length === 0;
    this.stackFaultLabels();
    // Each phase's name at its start, as wide as its band.
    replaceChildren(
      this.phaseLabels,
      ...this.phases.map((p, i) => {
        const end = i + 1 < this.phases.length ? this.phases[i + 1].at : this.durationMs;
        const label = h('span', {
          class: 'tl-phase-label',
          text: p.name,
          attrs: { title: `${formatVirtualTime(p.at)} ${p.name}: ${p.text}` },
        });
        label.style.left = `${x(p.at) / 10}%`;
        label.style.maxWidth = `${Math.max(0, x(end) - x(p.at)) / 10}%`;
        return label;
      }),
    );
    this.phaseLabels.hidden = this.phases.length === 0;
    this.phaseText.hidden = this.phases.length === 0;
    this.moments = summary.moments;
    // The activity histogram, scaled by the square root so sparse moments show.
    const counts = summary.activity;
    const max = Math.sqrt(Math.max(1, ...counts));
    const w = 1000 / Math.max(1, counts.length);
    let d = '';
    for (const [i, c] of counts.entries()) {
      if (c === 0) continue;
      const bar = Math.max(2, (Math.sqrt(c) / max) * (trackHeight - 12));
      d += `M${(i * w).toFixed(2)} ${trackHeight - 8}h${(w * 0.8).toFixed(2)}v${(-bar).toFixed(2)}h${(-w * 0.8).toFixed(2)}z`;
    }
    this.activity.setAttribute('d', d);
    this.slider.setAttribute('aria-valuemax', String(this.durationMs));
    this.at = Math.min(this.at, this.durationMs);
    // Speeds that fit the run; none for a run that happens at one instant.
    const speeds = playbackSpeedsFor(this.durationMs);
    if (speeds.join() !== this.speeds.join()) {
      this.speeds = speeds;
      this.speedDropdown.setChoices(
        this.speeds.map((v) => ({
          value: String(v),
          label: `${speedLabel(v)} (${playTime(this.durationMs / v)})`,
        })),
      );
      this.speedDropdown.setValue(String(nearestSpeed(this.speeds, this.speed) ?? this.speed));
    }
    const instant = this.durationMs === 0;
    this.playButton.hidden = instant;
    this.speedDropdown.element.hidden = instant;
    this.instantNote.hidden = !instant || this.live;
    this.instantNote.textContent = instant
      ? `Everything in this run happens at 0 s${this.realTime ? '' : ' of virtual time'} (${summary.moments.length > 0 ? `no request took ${this.realTime ? 'time' : 'virtual time'}` : 'nothing happened'}): there is nothing to play.`
      : '';
    this.drawAxis();
    this.draw();
  }

  /** Takes the offered speed nearest to `speed`; returns it. */
  setSpeed(speed: number): number {
    this.speed = nearestSpeed(this.speeds, speed) ?? speed;
    this.speedDropdown.setValue(String(this.speed));
    return this.speed;
  }

  /**
   * Puts each fault's name on the first line where it overlaps no earlier name, up to
   * maxFaultLabelLines lines (past that, hidden: its marker's tooltip names it). Measured as laid out: a
   * hidden panel measures nothing and is stacked again when the axis gets its width.
   */
  private stackFaultLabels(): void {
    const labels = Array.from(this.faultLabels.children) as HTMLElement[];
    const origin = this.faultLabels.getBoundingClientRect();
    if (labels.length === 0 || origin.width === 0) {
      this.faultLabels.style.height = '';
      return;
    }
    // All writes, then all reads: one layout, not one per label.
    for (const label of labels) {
      label.style.top = '0';
      label.hidden = false;
    }
    const boxes = labels
      .map((label) => {
        const r = label.getBoundingClientRect();
        return { label, left: r.left - origin.left, right: r.right - origin.left };
      })
      .sort((a, b) => a.left - b.left);
    const lineEnds: number[] = [];
    for (const b of boxes) {
      let line = lineEnds.findIndex((end) => end + faultLabelGapPx <= b.left);
      if (line < 0 && lineEnds.length < maxFaultLabelLines) line = lineEnds.push(-Infinity) - 1;
      if (line < 0) {
        // No line is free here: a name drawn over another reads as neither. Its marker stays,
        // with the fault in its tooltip, as does the name in the marker's title.
        b.label.hidden = true;
        continue;
      }
      lineEnds[line] = Math.max(lineEnds[line], b.right);
      b.label.style.top = `${line * faultLabelLineEm}em`;
    }
    this.faultLabels.style.height = `${lineEnds.length * faultLabelLineEm}em`;
  }

  private drawAxis(): void {
    const width = this.axis.clientWidth || 600;
    // A label takes about 60 px.
    const ticks = timeTicks(
      this.durationMs,
      Math.max(2, Math.min(maxTicks, Math.floor(width / 60))),
    );
    replaceChildren(
      this.axis,
      ...ticks.map((t) => {
        const tick = h('span', { class: 'tl-tick', text: t.label });
        const pct = this.durationMs > 0 ? (t.at / this.durationMs) * 100 : 0;
        tick.style.left = `${pct}%`;
        if (pct > 96) tick.classList.add('last');
        return tick;
      }),
    );
  }

  time(): number {
    return this.at;
  }

  isPlaying(): boolean {
    return this.playing;
  }

  /** Moves the scrubber and tells the owner. */
  seek(at: number): void {
    const clamped = Math.max(0, Math.min(this.durationMs, Number.isFinite(at) ? at : 0));
    if (clamped === this.at) {
      this.draw();
      return;
    }
    this.at = clamped;
    this.draw();
    this.options.onSeek(this.at);
  }

  /** A seek the user made: it stops following now, unless it lands on the end. */
  private userSeek(at: number): void {
    if (this.following && at < this.durationMs) this.setFollowing(false);
    this.seek(at);
  }

  /** To the previous (-1) or next (+1) moment something happened; the run's end after the last. */
  step(direction: 1 | -1): void {
    this.pause();
    if (direction < 0) this.setFollowing(false);
    if (direction > 0) {
      const next = this.moments.find((t) => t > this.at);
      this.seek(next ?? this.durationMs);
    } else {
      let prev = 0;
      for (const t of this.moments) {
        if (t >= this.at) break;
        prev = t;
      }
      this.seek(prev);
    }
  }

  togglePlay(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    if (this.playing || this.durationMs === 0) return;
    this.setFollowing(false);
    if (this.at >= this.durationMs) this.seek(0);
    this.playing = true;
    this.lastFrame = performance.now();
    this.updatePlayButton();
    const tick = (now: number) => {
      if (!this.playing) return;
      const next = this.at + (now - this.lastFrame) * this.speed;
      this.lastFrame = now;
      this.seek(next);
      if (this.at >= this.durationMs) {
        this.pause();
        return;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    this.updatePlayButton();
  }

  private updatePlayButton(): void {
    const label = this.playing ? 'Pause' : 'Play';
    this.playButton.setAttribute('aria-label', label);
    this.playButton.setAttribute('title', label);
    this.playButton.replaceChildren(icon(this.playing ? icons.pause : icons.play));
  }

  private seekToPointer(e: PointerEvent): void {
    const box = this.slider.getBoundingClientRect();
    if (box.width <= 0) return;
    this.pause();
    this.userSeek(((e.clientX - box.left) / box.width) * this.durationMs);
  }

  private onKey(e: KeyboardEvent): void {
    const tenth = this.durationMs / 10;
    const keys: Record<string, () => void> = {
      ArrowRight: () => this.step(1),
      ArrowUp: () => this.step(1),
      ArrowLeft: () => this.step(-1),
      ArrowDown: () => this.step(-1),
      PageUp: () => this.userSeek(this.at + tenth),
      PageDown: () => this.userSeek(this.at - tenth),
      Home: () => this.userSeek(0),
      End: () => (this.live ? this.setFollowing(true) : this.seek(this.durationMs)),
      ' ': () => this.togglePlay(),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  }

  private redraw(): void {
    const x = this.durationMs > 0 ? (this.at / this.durationMs) * 1000 : 0;
    this.cursor.setAttribute('x1', x.toFixed(2));
    this.cursor.setAttribute('x2', x.toFixed(2));
    this.progress.setAttribute('width', x.toFixed(2));
    this.slider.setAttribute('aria-valuenow', String(Math.round(this.at)));
    const text = `${formatVirtualTime(this.at)} of ${formatVirtualTime(this.durationMs)}`;
    this.slider.setAttribute('aria-valuetext', text);
    this.timeText.textContent = text;
    const phase = lastIndexAtOrBefore(this.phases, this.at);
    this.phaseText.textContent =
      phase < 0
        ? this.phases.length
          ? 'Before the first phase'
          : ''
        : `Phase ${phase + 1} of ${this.phases.length} · ${this.phases[phase].name}: ${this.phases[phase].text}`;
  }
}

/** How long a play of `ms` real milliseconds lasts, roughly: "plays in 12 s". */
function playTime(ms: number): string {
  const sec = ms / 1000;
  if (sec < 1) return 'plays in under a second';
  if (sec < 90) return `plays in ${Math.round(sec)} s`;
  return `plays in ${Math.round(sec / 60)} min`;
}
