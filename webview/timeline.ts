// The timeline scrubber over the run's virtual time: play, pause, step to the previous/next moment
// something happened, speed, and an ARIA slider drawn in our own SVG with the run's activity as a
// histogram under it. No upstream counterpart.
import { formatVirtualTime, lastIndexAtOrBefore } from '../src/inspector/watcher-states';
import { playbackSpeeds } from '../src/protocol';
import { h, s, perFrame } from './dom';
import { button, dropdown, type DropdownHandle } from './toolkit';

export interface TimelineOptions {
  /** The scrubber moved (by the user or by playback). */
  onSeek(at: number): void;
  onSpeed(speed: number): void;
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
};

// Histogram columns of the activity strip (one path; the SVG scales it to the width).
const activityBuckets = 240;
// Slider geometry in SVG units (the viewBox is stretched horizontally to the element's width).
const trackHeight = 36;

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
  private phases: Array<{ at: number; name: string; text: string }> = [];
  private readonly playButton: HTMLElement;
  private readonly speedDropdown: DropdownHandle;
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
      { label: 'Go to the start', appearance: 'icon', onClick: () => this.seek(0) },
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
    this.speedDropdown = dropdown({
      label: 'Playback speed',
      choices: playbackSpeeds.map((v) => ({ value: String(v), label: `${v}× speed` })),
      value: String(this.speed),
      onChange: (v) => {
        this.speed = Number(v) || 10;
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
    this.slider.appendChild(this.phaseMarks);
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
        this.speedDropdown.element,
      ),
      h('div', { class: 'tl-track-wrap' }, this.slider),
      this.timeText,
      this.phaseText,
    );
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
   * A new run: its length, when things happened (any order, duplicates allowed) and the
   * scenario's phases (the narrative: shown as marks on the track and named under it).
   */
  setRun(
    durationMs: number,
    eventTimes: number[],
    phases: Array<{ at: number; name: string; text: string }> = [],
  ): void {
    this.pause();
    this.durationMs = Math.max(0, durationMs);
    this.phases = [...phases].sort((a, b) => a.at - b.at);
    this.phaseMarks.replaceChildren(
      ...this.phases.map((p) => {
        const x = this.durationMs > 0 ? (p.at / this.durationMs) * 1000 : 0;
        return s(
          'g',
          { class: 'tl-phase-mark' },
          s('title', {}, `${formatVirtualTime(p.at)} ${p.name}: ${p.text}`),
          s('line', { x1: x, x2: x, y1: 0, y2: trackHeight - 4 }),
        );
      }),
    );
    this.phaseText.hidden = this.phases.length === 0;
    const sorted = Float64Array.from(
      eventTimes.filter((t) => Number.isFinite(t) && t >= 0 && t <= this.durationMs),
    ).sort();
    const moments: number[] = [];
    for (const t of sorted)
      if (moments.length === 0 || moments[moments.length - 1] !== t) moments.push(t);
    this.moments = moments;
    // The activity histogram: events per column, scaled by the square root so sparse moments show.
    const counts = new Array<number>(activityBuckets).fill(0);
    const span = this.durationMs || 1;
    for (const t of sorted)
      counts[Math.min(activityBuckets - 1, Math.floor((t / span) * activityBuckets))]++;
    const max = Math.sqrt(Math.max(1, ...counts));
    const w = 1000 / activityBuckets;
    let d = '';
    for (const [i, c] of counts.entries()) {
      if (c === 0) continue;
      const bar = Math.max(2, (Math.sqrt(c) / max) * (trackHeight - 12));
      d += `M${(i * w).toFixed(2)} ${trackHeight - 8}h${(w * 0.8).toFixed(2)}v${(-bar).toFixed(2)}h${(-w * 0.8).toFixed(2)}z`;
    }
    this.activity.setAttribute('d', d);
    this.slider.setAttribute('aria-valuemax', String(this.durationMs));
    this.at = Math.min(this.at, this.durationMs);
    this.draw();
  }

  setSpeed(speed: number): void {
    this.speed = speed;
    this.speedDropdown.setValue(String(speed));
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

  /** To the previous (-1) or next (+1) moment something happened; the run's end after the last. */
  step(direction: 1 | -1): void {
    this.pause();
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
    this.seek(((e.clientX - box.left) / box.width) * this.durationMs);
  }

  private onKey(e: KeyboardEvent): void {
    const tenth = this.durationMs / 10;
    const keys: Record<string, () => void> = {
      ArrowRight: () => this.step(1),
      ArrowUp: () => this.step(1),
      ArrowLeft: () => this.step(-1),
      ArrowDown: () => this.step(-1),
      PageUp: () => this.seek(this.at + tenth),
      PageDown: () => this.seek(this.at - tenth),
      Home: () => this.seek(0),
      End: () => this.seek(this.durationMs),
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
