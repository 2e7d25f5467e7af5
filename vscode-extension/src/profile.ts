// Per-object communication profile: the run's profile channel (profileSchema.ts) turned into one row per object. Live
// windows give each object's newest rates (summed over nodes, p99 the worst node's); the run's report, at the end,
// gives its totals. Pure logic; the webview renders it.
import { LiveObject, LiveWindow, Placement, ProfileRecord, ProfileReport, Suggestion } from './profileSchema';

/** One stay of a remote object on a node, as a share of the run (for the view's location strip). */
export interface StripSegment {
  node: number;
  /** Length, percent of the run (the stays follow each other from the run's start to its end). */
  percent: number;
  /** Seconds from the run's start. */
  fromSec: number;
  toSec: number;
}

export interface ProfileRow {
  object: string;
  kind?: string;
  className?: string;
  /** Live, newest windows summed over nodes: writes/s of a cloud, calls/s of a remote object, misses/s of an array. */
  writesPerSec?: number;
  /** Live: the worst node's p99 (write to local apply, call, remote tuple operation or miss), µs. */
  p99WriteUs?: number;
  /** Live: sequencer arrivals in the newest windows (clouds). */
  migrations?: number;
  /** Shared arrays: misses (live in the newest windows, then the report's total). */
  misses?: number;
  /** Report: remote calls, summed over methods, and per method. */
  calls?: number;
  methods?: Record<string, number>;
  /** Report: replicated writes, summed over methods, and per method. */
  writes?: number;
  writeMethods?: Record<string, number>;
  /** Report: shared arrays' hits and invalidations. */
  hits?: number;
  invalidations?: number;
  /** Report: tuple moves + observes. */
  tupleOps?: number;
  /** Report: worst median and p99 latency over the object's methods, µs. */
  p50Us?: number;
  p99Us?: number;
  /** Report: bytes on the wire for the object. */
  bytes?: number;
  /** Report, remote objects: the node it lived on at the run's end. */
  node?: number;
  /** Report, remote objects: migrations that moved it. */
  moves?: number;
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
  /** object → node → its newest live figures. */
  private live = new Map<string, Map<number, LiveObject>>();
  private listeners: (() => void)[] = [];
  runDir?: string;
  running = false;

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
    this.live.clear();
    this.runDir = undefined;
    this.changed();
  }

  all(): ProfileRow[] {
    return [...this.rows.values()].sort((a, b) => a.object.localeCompare(b.object));
  }

  /** The moves the run's report suggests, by object. */
  suggestions(): Suggestion[] {
    return this.all().flatMap((r) => (r.suggestion ? [r.suggestion] : []));
  }

  get(object: string): ProfileRow | undefined {
    return this.rows.get(object);
  }

  private row(object: string): ProfileRow {
    let r = this.rows.get(object);
    if (!r) {
      r = { object };
      this.rows.set(object, r);
    }
    return r;
  }

  /** One record of the channel; returns the objects it touched. */
  accept(record: ProfileRecord): string[] {
    const touched = record.type === 'window' ? this.acceptWindow(record) : this.acceptReport(record);
    this.changed();
    return touched;
  }

  private acceptWindow(w: LiveWindow): string[] {
    const names: string[] = [];
    for (const o of w.objects ?? []) {
      let byNode = this.live.get(o.name);
      if (!byNode) {
        byNode = new Map();
        this.live.set(o.name, byNode);
      }
      byNode.set(w.node, o);
      summarizeLive(this.row(o.name), [...byNode.values()]);
      names.push(o.name);
    }
    return names;
  }

  /** The run's totals; fed twice, the same totals. */
  private acceptReport(r: ProfileReport): string[] {
    this.runDir = r.runDir || this.runDir;
    const fresh = new Map<string, ProfileRow>();
    const at = (object: string, kind: string) => {
      let t = fresh.get(object);
      if (!t) {
        t = { object, kind };
        fresh.set(object, t);
      }
      return t;
    };
    const worst = (t: ProfileRow, p50: number, p99: number) => {
      t.p50Us = Math.max(t.p50Us ?? 0, p50);
      t.p99Us = Math.max(t.p99Us ?? 0, p99);
    };
    for (const m of r.remote ?? []) {
      const t = at(m.object, 'remote');
      t.methods = { ...t.methods, [m.method]: m.calls };
      t.calls = (t.calls ?? 0) + m.calls;
      t.bytes = (t.bytes ?? 0) + m.requestBytes + m.replyBytes;
      worst(t, m.p50Us, m.p99Us);
    }
    for (const p of r.placements ?? []) {
      const t = at(p.object, 'remote');
      Object.assign(t, { node: p.node, moves: p.moves.filter((m) => m.outcome === 'moved').length,
        location: locationStrip(p), callers: callersText(p) });
    }
    for (const s of r.suggestions ?? []) at(s.object, 'remote').suggestion = s;
    for (const c of r.clouds ?? []) {
      const t = at(c.cloud, 'cloud');
      t.writeMethods = Object.fromEntries(c.methods.map((m) => [m.method, m.writes]));
      t.writes = c.writes;
      t.bytes = c.bytes;
      for (const m of c.methods) worst(t, m.p50Us, m.p99Us);
    }
    for (const a of r.arrays ?? []) {
      const t = at(a.array, 'array');
      Object.assign(t, { misses: a.misses, hits: a.hits, invalidations: a.invalidations, bytes: a.bytes });
      worst(t, a.p50MissUs, a.p99MissUs);
    }
    for (const e of r.elements ?? []) {
      const t = at(e.element, 'tuple');
      Object.assign(t, { tupleOps: e.moves + e.observes, bytes: e.bytes });
      worst(t, 0, e.remoteP99Us);
    }
    for (const [object, t] of fresh) {
      const row = this.row(object);
      Object.assign(row, t, { kind: row.kind ?? t.kind });
    }
    return [...fresh.keys()];
  }

  setSource(object: string, source: { uri: string; line: number }): void {
    const r = this.rows.get(object);
    if (r) {
      r.source = source;
      this.changed();
    }
  }
}

/** A row's live figures from each node's newest figures of the object. */
function summarizeLive(row: ProfileRow, perNode: LiveObject[]): void {
  const sum = (f: (o: LiveObject) => number | undefined) => perNode.reduce((a, o) => a + (f(o) ?? 0), 0);
  const max = (f: (o: LiveObject) => number | undefined) => Math.max(0, ...perNode.map((o) => f(o) ?? 0));
  const o = perNode[0];
  row.kind = o.kind;
  switch (o.kind) {
    case 'cloud':
      row.className = o.className ?? row.className;
      row.writesPerSec = sum((x) => (x.kind === 'cloud' ? x.writesPerSec : 0));
      row.p99WriteUs = max((x) => (x.kind === 'cloud' ? x.p99WriteUs : 0));
      row.migrations = sum((x) => (x.kind === 'cloud' ? x.migrations : 0));
      break;
    case 'remote':
      row.writesPerSec = sum((x) => (x.kind === 'remote' ? x.callsPerSec : 0));
      row.p99WriteUs = max((x) => (x.kind === 'remote' ? x.p99Us : 0));
      break;
    case 'array':
      row.writesPerSec = sum((x) => (x.kind === 'array' ? x.missesPerSec : 0));
      row.p99WriteUs = max((x) => (x.kind === 'array' ? x.p99MissUs : 0));
      row.misses = sum((x) => (x.kind === 'array' ? x.misses : 0));
      break;
    case 'tuple':
      row.p99WriteUs = max((x) => (x.kind === 'tuple' ? x.remoteP99Us : 0));
      break;
    case 'other':
      break;
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
      const share = p.calls > 0 ? `${Math.round((100 * c.calls) / p.calls)} %` : '';
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
