// Per-object communication profile: the run's profile channel (profileSchema.ts) as one row per object. The figures
// are the profiler's own (ObjectFigures: live, the cluster's newest second summed over nodes; after the run, the
// report's, over the whole run), shown as they come and never recomputed here; the report adds each remote object's
// placement and the profiler's suggested moves. Pure logic; the webview renders it.
import { LiveFigures, ObjectFigures, Placement, ProfileRecord, ProfileReport, Suggestion } from './profileSchema';

/** One stay of a remote object on a node, as a share of the run (for the view's location strip). */
export interface StripSegment {
  node: number;
  /** Length, percent of the run (the stays follow each other from the run's start to its end). */
  percent: number;
  /** Seconds from the run's start. */
  fromSec: number;
  toSec: number;
}

/** An object's row: the profiler's figures, unchanged, and what the editor adds to find and place it. */
export interface ProfileRow {
  object: string;
  /** The profiler's figures of the object (live or of the whole run, as `ProfileModel.live` says). */
  figures: ObjectFigures;
  /** One of the runtime's own objects (cumulus.*, its array and tuple-space services): listed apart. */
  internal: boolean;
  /** Report, remote objects: where it lived over the run, one segment per stay. */
  location?: StripSegment[];
  /** Report, remote objects: its calls by caller node, as one line. */
  callers?: string;
  /** Report: the move the profiler suggests for it (the profiler decides; the view only shows it). */
  suggestion?: Suggestion;
  /** Where the object is created in the workspace, when found: file URI and 0-based line. */
  source?: { uri: string; line: number };
}

export class ProfileModel {
  private rows = new Map<string, ProfileRow>();
  private listeners: (() => void)[] = [];
  runDir?: string;
  running = false;
  /** Whether the rows hold live figures (the newest second) rather than a finished run's. */
  live = true;
  /** Sequencer arrivals in the nodes' newest windows (live figures only). */
  sequencerMigrations?: number;

  onChange(f: () => void): void {
    this.listeners.push(f);
  }

  private changed(): void {
    for (const f of this.listeners) f();
  }

  refresh(): void {
    this.changed();
  }

  reset(): void {
    this.rows.clear();
    this.runDir = undefined;
    this.live = true;
    this.sequencerMigrations = undefined;
    this.changed();
  }

  /** Every row, the program's objects first, each group in the profiler's order (busiest first). */
  all(): ProfileRow[] {
    const rows = [...this.rows.values()];
    return [...rows.filter((r) => !r.internal), ...rows.filter((r) => r.internal)];
  }

  /** The moves the run's report suggests, by object. */
  suggestions(): Suggestion[] {
    return this.all().flatMap((r) => (r.suggestion ? [r.suggestion] : []));
  }

  get(object: string): ProfileRow | undefined {
    return this.rows.get(object);
  }

  /** One record of the channel; returns the objects it touched. A single node's window is not shown on its own. */
  accept(record: ProfileRecord): string[] {
    if (record.type === 'window') return [];
    const touched = record.type === 'figures' ? this.acceptFigures(record) : this.acceptReport(record);
    this.changed();
    return touched;
  }

  /** Replaces the rows with these figures, in their order; keeps what the editor found (source) and placements. */
  private replace(objects: ObjectFigures[], internal: ObjectFigures[], placed: boolean): string[] {
    const old = this.rows;
    this.rows = new Map();
    for (const [list, isInternal] of [[objects, false], [internal, true]] as const) {
      for (const f of list) {
        const before = old.get(f.name);
        this.rows.set(f.name, { object: f.name, figures: f, internal: isInternal, source: before?.source,
          ...(placed ? {} : { location: before?.location, callers: before?.callers, suggestion: before?.suggestion }) });
      }
    }
    return [...this.rows.keys()];
  }

  private acceptFigures(f: LiveFigures): string[] {
    this.live = true;
    this.sequencerMigrations = f.sequencerMigrations;
    return this.replace(f.objects ?? [], f.internal ?? [], false);
  }

  /** The run's figures and placements; fed twice, the same rows. */
  private acceptReport(r: ProfileReport): string[] {
    this.runDir = r.runDir || this.runDir;
    const touched = r.objects || r.internal ? this.replace(r.objects ?? [], r.internal ?? [], true) : [];
    if (r.objects || r.internal) {
      this.live = false;
      this.sequencerMigrations = undefined;
    }
    for (const p of r.placements ?? []) {
      const row = this.rows.get(p.object);
      if (row) Object.assign(row, { location: locationStrip(p), callers: callersText(p) });
    }
    for (const s of r.suggestions ?? []) {
      const row = this.rows.get(s.object);
      if (row) row.suggestion = s;
    }
    return touched;
  }

  setSource(object: string, source: { uri: string; line: number }): void {
    const r = this.rows.get(object);
    if (r) {
      r.source = source;
      this.changed();
    }
  }
}

/** A placement's stays as segments of the run, for a location-over-time strip. */
export function locationStrip(p: Placement): StripSegment[] {
  if (p.location.length === 0) return [];
  const start = p.location[0].fromMs;
  const span = Math.max(1, p.location[p.location.length - 1].toMs - start);
  return p.location.map((s) => ({
    node: s.node,
    percent: (100 * (s.toMs - s.fromMs)) / span,
    fromSec: (s.fromMs - start) / 1000,
    toSec: (s.toMs - start) / 1000,
  }));
}

/** "node 1: 2 (15 %), node 2: 11 (85 %, 1 forwarded)": a placement's calls by caller node. */
export function callersText(p: Placement): string {
  return p.callers
    .map((c) => {
      const share = p.calls > 0 ? `${Math.round(c.sharePercent)} %` : '';
      const fwd = c.forwarded > 0 ? `${c.forwarded} forwarded` : '';
      const extra = [share, fwd].filter((x) => x).join(', ');
      return `node ${c.node}: ${c.calls}${extra ? ` (${extra})` : ''}`;
    })
    .join(', ');
}

/** The string literal that names an object in source: "matrix-worker-0" is created as "matrix-worker-" + w. */
export function literalPrefixes(object: string): string[] {
  const list = [object];
  const stripped = object.replace(/\d+$/, '');
  if (stripped !== object && stripped.length > 0) list.push(stripped);
  return list;
}

/** 0-based line of the first `"name"` (or `"prefix` for numbered names) in text, or -1. */
export function findObjectLine(text: string, object: string): number {
  for (const p of literalPrefixes(object)) {
    const needle = p === object ? `"${p}"` : `"${p}"`;
    let i = text.indexOf(needle);
    if (i < 0 && p !== object) {
      i = text.indexOf(`"${p}`);
    }
    if (i >= 0) {
      return text.slice(0, i).split('\n').length - 1;
    }
  }
  return -1;
}
