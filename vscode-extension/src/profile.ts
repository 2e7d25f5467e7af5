// Per-object communication profile: live figures (cumulus/profileUpdate-style objects) merged with the rows of the
// run's final report (the tables `cumulus run --profile` prints). Pure logic; the webview renders it.
import { ProfileUpdate } from './protocol';

export interface ProfileRow extends ProfileUpdate {
  /** Remote calls (final report), summed over methods. */
  calls?: number;
  /** Methods seen in the final report's remote-call table, with their call counts. */
  methods?: Record<string, number>;
  /** Replicated writes (final report), summed over methods. */
  writes?: number;
  /** Methods seen in the final report's replicated-writes table, with their write counts. */
  writeMethods?: Record<string, number>;
  /** Shared arrays (final report, summed over nodes): cache hits and invalidations; misses go to `misses`. */
  hits?: number;
  invalidations?: number;
  /** Tuple elements (final report): moves + observes. */
  tupleOps?: number;
  /** The final report's rows of this object, by table and method/node. */
  report?: Record<string, ReportRow>;
  p50Us?: number;
  p99Us?: number;
  bytes?: number;
  /** Where the object is created in the workspace, when found: file URI and 0-based line. */
  source?: { uri: string; line: number };
}

export class ProfileModel {
  private rows = new Map<string, ProfileRow>();
  private listeners: (() => void)[] = [];
  runDir?: string;
  live = false;

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
    this.changed();
  }

  all(): ProfileRow[] {
    return [...this.rows.values()].sort((a, b) => a.object.localeCompare(b.object));
  }

  get(object: string): ProfileRow | undefined {
    return this.rows.get(object);
  }

  /** A live update replaces the object's figures (absent numbers keep their old values). */
  update(u: ProfileUpdate): boolean {
    if (!u || typeof u.object !== 'string' || !u.object.trim()) {
      return false;
    }
    const old = this.rows.get(u.object) ?? { object: u.object };
    const merged: ProfileRow = { ...old };
    for (const [k, v] of Object.entries(u)) {
      if (v !== undefined && v !== null) (merged as unknown as Record<string, unknown>)[k] = v;
    }
    this.rows.set(u.object, merged);
    this.changed();
    return true;
  }

  setSource(object: string, source: { uri: string; line: number }): void {
    const r = this.rows.get(object);
    if (r) {
      r.source = source;
      this.changed();
    }
  }

  /**
   * Adds rows of the final report. An object's report figures are totals over the run: they are recomputed from all
   * of its report rows (remote methods, cloud methods, array nodes, tuple elements), so a row fed twice counts once.
   */
  addReport(rows: ReportRow[]): void {
    for (const r of rows) {
      const row: ProfileRow = this.rows.get(r.object) ?? { object: r.object };
      row.kind = row.kind ?? r.section;
      row.report = { ...(row.report ?? {}), [reportKey(r)]: r };
      summarize(row);
      this.rows.set(r.object, row);
    }
    this.changed();
  }
}

function reportKey(r: ReportRow): string {
  switch (r.section) {
    case 'remote': return `remote:${r.method}`;
    case 'cloud': return `cloud:${r.method}`;
    case 'array': return `array:${r.node}`;
    case 'tuple': return 'tuple';
  }
}

/** The row's totals from its report rows. */
function summarize(row: ProfileRow): void {
  const parts = Object.values(row.report ?? {});
  const sum = (f: (r: ReportRow) => number | undefined) => parts.reduce((a, r) => a + (f(r) ?? 0), 0);
  const remote = parts.filter((r): r is RemoteReportRow => r.section === 'remote');
  const cloud = parts.filter((r): r is CloudReportRow => r.section === 'cloud');
  const arrays = parts.filter((r): r is ArrayReportRow => r.section === 'array');
  const tuples = parts.filter((r): r is TupleReportRow => r.section === 'tuple');
  if (remote.length) {
    row.methods = Object.fromEntries(remote.map((r) => [r.method, r.calls]));
    row.calls = remote.reduce((a, r) => a + r.calls, 0);
  }
  if (cloud.length) {
    row.writeMethods = Object.fromEntries(cloud.map((r) => [r.method, r.writes]));
    row.writes = cloud.reduce((a, r) => a + r.writes, 0);
  }
  if (arrays.length) {
    row.misses = arrays.reduce((a, r) => a + r.misses, 0);
    row.hits = arrays.reduce((a, r) => a + r.hits, 0);
    row.invalidations = arrays.reduce((a, r) => a + r.invalidations, 0);
  }
  if (tuples.length) {
    row.tupleOps = tuples.reduce((a, r) => a + r.moves + r.observes, 0);
  }
  const p50 = parts.map((r) => ('p50Us' in r ? r.p50Us : undefined)).filter((v): v is number => v !== undefined);
  const p99 = parts.map((r) => ('p99Us' in r ? r.p99Us : undefined)).filter((v): v is number => v !== undefined);
  if (p50.length) row.p50Us = Math.max(...p50);
  if (p99.length) row.p99Us = Math.max(...p99);
  row.bytes = sum((r) => (r.section === 'remote' ? r.requestBytes + r.replyBytes : r.bytes));
}

/** A row of the remote-call table. */
export interface RemoteReportRow {
  section: 'remote';
  object: string;
  method: string;
  calls: number;
  async: number;
  failed: number;
  p50Us: number;
  p99Us: number;
  requestBytes: number;
  replyBytes: number;
  nodes: string;
}

/** A row of the replicated-writes table (object = the cloud). */
export interface CloudReportRow {
  section: 'cloud';
  object: string;
  method: string;
  writes: number;
  restarts: number;
  p50Us?: number;
  p99Us?: number;
  bytes: number;
  nodes: string;
}

/** A row of the shared-array table: one array on one node. */
export interface ArrayReportRow {
  section: 'array';
  object: string;
  node: number;
  hits: number;
  misses: number;
  invalidations: number;
  bytes: number;
}

/** A row of the tuple-element table. */
export interface TupleReportRow {
  section: 'tuple';
  object: string;
  moves: number;
  observes: number;
  remoteOps: number;
  p99Us: number;
  bytes: number;
}

export type ReportRow = RemoteReportRow | CloudReportRow | ArrayReportRow | TupleReportRow;

type Section = ReportRow['section'];
const SECTIONS: [RegExp, Section][] = [
  [/^\s*remote calls by object and method:\s*$/, 'remote'],
  [/^\s*replicated writes by cloud and method\b.*:\s*$/, 'cloud'],
  [/^\s*shared arrays by node\b.*:\s*$/, 'array'],
  [/^\s*tuple elements\b.*:\s*$/, 'tuple'],
];
const HEADERS = new Set(['object', 'cloud', 'array', 'element']);
const num = (s: string | undefined) => (s !== undefined && /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : undefined);
const int = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined);

/**
 * Reads the launcher's profile report (profiler TextReport, printed by `cumulus run --profile[-stream]`) out of a
 * run's output, line by line (a `[n] ` prefix is ignored). It reads the per-object tables, whose rows are indented:
 *   remote calls by object and method:
 *     object   method calls async failed p50 µs p99 µs request bytes reply bytes nodes (callers -> targets)
 *     counter  add       20    10      0    3.1   40.0          1280         320 0,1 -> 0
 *   replicated writes by cloud and method (latency: call to local apply):
 *     cloud method writes restarts p50 µs  p99 µs bytes writer nodes
 *     tally add       500        0  910.9 12202.1 21000 0,1
 *   shared arrays by node (misses: ...):
 *     array node hits misses invalidations bytes hottest partition
 *     A     0       0      4             0     0 0 (1)
 *   tuple elements (PastSet):
 *     element moves observes remote ops blocked ms remote p99 µs bytes max distance nodes (callers -> homes)
 */
export class ReportParser {
  private section?: Section;
  readonly rows: ReportRow[] = [];

  /** Feeds one line; returns a row when the line was one. */
  accept(rawLine: string): ReportRow | undefined {
    const line = rawLine.replace(/^\[-?\d+\] /, '');
    for (const [re, section] of SECTIONS) {
      if (re.test(line)) {
        this.section = section;
        return undefined;
      }
    }
    if (!this.section) {
      return undefined;
    }
    if (!/^\s+\S/.test(line)) {
      this.section = undefined;
      return undefined;
    }
    const f = line.trim().split(/\s+/);
    if (HEADERS.has(f[0]) && !num(f[1])) {
      return undefined;
    }
    const row = this.parse(this.section, f);
    if (row) this.rows.push(row);
    return row;
  }

  private parse(section: Section, f: string[]): ReportRow | undefined {
    switch (section) {
      case 'remote': {
        if (f.length < 9 || int(f[2]) === undefined) return undefined;
        return {
          section, object: f[0], method: f[1], calls: Number(f[2]), async: Number(f[3]), failed: Number(f[4]),
          p50Us: Number(f[5]), p99Us: Number(f[6]), requestBytes: Number(f[7]), replyBytes: Number(f[8]),
          nodes: f.slice(9).join(' '),
        };
      }
      case 'cloud': {
        if (f.length < 7 || int(f[2]) === undefined || int(f[3]) === undefined) return undefined;
        return {
          section, object: f[0], method: f[1], writes: Number(f[2]), restarts: Number(f[3]), p50Us: num(f[4]),
          p99Us: num(f[5]), bytes: int(f[6]) ?? 0, nodes: f.slice(7).join(' '),
        };
      }
      case 'array': {
        if (f.length < 6 || [1, 2, 3, 4, 5].some((i) => int(f[i]) === undefined)) return undefined;
        return {
          section, object: f[0], node: Number(f[1]), hits: Number(f[2]), misses: Number(f[3]),
          invalidations: Number(f[4]), bytes: Number(f[5]),
        };
      }
      case 'tuple': {
        if (f.length < 7 || [1, 2, 3, 6].some((i) => int(f[i]) === undefined)) return undefined;
        return {
          section, object: f[0], moves: Number(f[1]), observes: Number(f[2]), remoteOps: Number(f[3]),
          p99Us: num(f[5]) ?? 0, bytes: Number(f[6]),
        };
      }
    }
  }
}

/** A line of output that is one JSON object with an `object` field (the profiler's JSON-lines stream). */
export function parseLiveLine(rawLine: string): ProfileUpdate | undefined {
  const line = rawLine.replace(/^\[-?\d+\] /, '').trim();
  if (!line.startsWith('{') || !line.includes('"object"')) {
    return undefined;
  }
  try {
    const o = JSON.parse(line);
    return o && typeof o.object === 'string' ? (o as ProfileUpdate) : undefined;
  } catch {
    return undefined;
  }
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
