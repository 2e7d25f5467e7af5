// Per-object communication profile: live figures (cumulus/profileUpdate-style objects) merged with the rows of the
// run's final report (the table `cumulus run --profile` prints). Pure logic; the webview renders it.
import { ProfileUpdate } from './protocol';

export interface ProfileRow extends ProfileUpdate {
  /** Remote calls (final report), summed over methods. */
  calls?: number;
  /** Methods seen in the final report, with their call counts. */
  methods?: Record<string, number>;
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

  /** Adds the final report's rows. */
  addReport(rows: ReportRow[]): void {
    for (const r of rows) {
      const row: ProfileRow = this.rows.get(r.object) ?? { object: r.object, kind: 'remote' };
      row.kind = row.kind ?? 'remote';
      row.methods = { ...(row.methods ?? {}), [r.method]: r.calls };
      row.calls = Object.values(row.methods).reduce((a, b) => a + b, 0);
      row.p50Us = Math.max(row.p50Us ?? 0, r.p50Us);
      row.p99Us = Math.max(row.p99Us ?? 0, r.p99Us);
      row.bytes = (row.bytes ?? 0) + r.requestBytes + r.replyBytes;
      this.rows.set(r.object, row);
    }
    this.changed();
  }
}

export interface ReportRow {
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

/**
 * Reads the launcher's profile report out of a run's output, line by line (a `[n] ` prefix is ignored):
 *   remote calls by object and method:
 *     object   method calls async failed p50 µs p99 µs request bytes reply bytes nodes (callers -> targets)
 *     counter  add       20    10      0    3.1   40.0          1280         320 0,1 -> 0
 */
export class ReportParser {
  private inTable = false;
  readonly rows: ReportRow[] = [];

  /** Feeds one line; returns a row when the line was one. */
  accept(rawLine: string): ReportRow | undefined {
    const line = rawLine.replace(/^\[-?\d+\] /, '');
    if (/^\s*remote calls by object and method:\s*$/.test(line)) {
      this.inTable = true;
      return undefined;
    }
    if (!this.inTable) {
      return undefined;
    }
    if (!/^\s+\S/.test(line)) {
      this.inTable = false;
      return undefined;
    }
    const f = line.trim().split(/\s+/);
    if (f[0] === 'object' && f[1] === 'method') {
      return undefined;
    }
    if (f.length < 9 || !/^\d+$/.test(f[2])) {
      return undefined;
    }
    const row: ReportRow = {
      object: f[0], method: f[1], calls: Number(f[2]), async: Number(f[3]), failed: Number(f[4]),
      p50Us: Number(f[5]), p99Us: Number(f[6]), requestBytes: Number(f[7]), replyBytes: Number(f[8]),
      nodes: f.slice(9).join(' '),
    };
    this.rows.push(row);
    return row;
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
