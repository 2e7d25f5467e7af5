// The Communication Profile view: a webview with the profiler's suggested moves, a sortable per-object table (rows open
// the source line), a chart, and each remote object's location over time with its calls by caller node.
import * as vscode from 'vscode';
import { ProfileModel, ProfileRow } from './profile';

export const LAG_NOTE = 'Live figures come from JDK Flight Recorder streaming and are about one second behind the program.';

/** What the view says when it has no rows: before any run, while a run goes, after a run whose report had none. */
export const EMPTY = {
  none: 'No profile yet: run a program with “Cumulus: Run on Cluster…”.',
  live: 'Run in progress: waiting for the first live summary (JFR streaming lags about one second).',
  report: "The run's report lists no per-object traffic (no remote calls, replicated writes, shared arrays or tuple " +
    "elements); the whole report is in the 'Cumulus Run' output.",
};

/** Below this view width (CSS px) the columns of `hide: 2` are dropped; below NARROW_PX those of `hide: 1` too. */
export const WIDE_PX = 520;
export const NARROW_PX = 340;

/** The table's columns, in order; `hide` says from which width down a column is dropped (none: always shown). */
export const COLUMNS: { key: string; label: string; title?: string; hide?: 1 | 2 }[] = [
  { key: 'object', label: 'object' },
  { key: 'kind', label: 'kind', hide: 1 },
  { key: 'operations', label: 'count', title: 'what the object does, counted: calls of a remote object, writes of a ' +
    'cloud, moves and observes of a tuple element, misses of a shared array. Live: the newest second, summed over ' +
    'nodes; after the run: the whole run' },
  { key: 'rate', label: 'per s', title: 'the count per second. Live: each node\'s newest one-second window, summed ' +
    'over nodes; after the run: over the run\'s span (none for a run shorter than a second)' },
  { key: 'p99', label: 'p99', title: '99th percentile latency of what is counted (call to reply, write to local ' +
    'apply, remote tuple operation, miss). Live: the highest node\'s in the newest second; after the run: over the run' },
  { key: 'p50', label: 'p50', title: 'median latency, as p99', hide: 2 },
  { key: 'bytes', label: 'bytes', title: 'bytes on the wire for the object', hide: 2 },
  { key: 'moves', label: 'moves', title: 'remote objects: migrations that moved it during the run', hide: 2 },
];

/** One row as the webview shows it: the profiler's figures formatted (never recomputed), with their sort keys. */
export interface ViewRow {
  object: string;
  internal: boolean;
  /** Cell texts and sort keys, one per column. */
  cells: string[];
  sort: (number | string | null)[];
  /** The row's tooltip: every figure with its unit (narrow views drop columns). */
  title: string;
  /** The chart's bar: the count column, with its unit. */
  bar: { value: number; label: string };
  node?: number;
  moves?: number;
  location?: ProfileRow['location'];
  callers?: string;
  suggestion?: ProfileRow['suggestion'];
  source?: ProfileRow['source'];
}

/** A latency in µs with the unit that suits it (as the profiler's FigureText writes lens lines). */
export function latencyText(us: number): string {
  if (us < 10) return `${us.toFixed(1)} µs`;
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(1)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

function count(n: number): string {
  return n.toLocaleString('en');
}

function rateText(r: number): string {
  return r >= 100 ? count(Math.round(r)) : r.toFixed(1);
}

/** The model's rows as the webview shows them. */
export function viewRows(model: ProfileModel): ViewRow[] {
  return model.all().map((r) => {
    const f = r.figures;
    const values: Record<string, [string, number | string | null]> = {
      object: [r.object, r.object],
      kind: [f.kind, f.kind],
      operations: [count(f.operations), f.operations],
      rate: f.operationsPerSec === undefined ? ['', null] : [rateText(f.operationsPerSec), f.operationsPerSec],
      p99: f.p99Us === undefined ? ['', null] : [latencyText(f.p99Us), f.p99Us],
      p50: f.p50Us === undefined ? ['', null] : [latencyText(f.p50Us), f.p50Us],
      bytes: [count(f.bytes), f.bytes],
      moves: f.moves === undefined ? ['', null] : [count(f.moves), f.moves],
    };
    const parts = [`${count(f.operations)} ${f.operation}${model.live ? ' in the newest second' : ''}`];
    if (f.operationsPerSec !== undefined) parts.push(`${rateText(f.operationsPerSec)} ${f.operation}/s`);
    if (f.p99Us !== undefined) parts.push(`p99 ${latencyText(f.p99Us)}`);
    if (f.p50Us !== undefined) parts.push(`p50 ${latencyText(f.p50Us)}`);
    parts.push(`${count(f.bytes)} bytes`);
    if (f.failed) parts.push(`${count(f.failed)} failed`);
    if (f.hits !== undefined) parts.push(`${count(f.hits)} hits`);
    if (f.invalidations !== undefined) parts.push(`${count(f.invalidations)} invalidations`);
    if (f.restarts) parts.push(`${count(f.restarts)} reads restarted as writes`);
    if (f.moves) parts.push(`${count(f.moves)} ${f.moves === 1 ? 'move' : 'moves'}`);
    const where = r.source ? `open ${r.source.uri.split('/').pop()}:${r.source.line + 1}` : "open the object's source";
    return {
      object: r.object, internal: r.internal,
      cells: COLUMNS.map((c) => values[c.key][0]), sort: COLUMNS.map((c) => values[c.key][1]),
      title: `${r.object} (${f.kind}${f.className ? ` ${f.className}` : ''})\n${parts.join(' · ')}\n${r.internal ? "the runtime's own object" : where}`,
      bar: { value: f.operations, label: `${r.object} ${count(f.operations)} ${f.operation}` },
      node: f.node, moves: f.moves, location: r.location, callers: r.callers, suggestion: r.suggestion, source: r.source,
    };
  });
}

export class ProfileViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = 'cumulus.profileView';
  private view?: vscode.WebviewView;

  constructor(private readonly model: ProfileModel, private readonly open: (row: ProfileRow) => void) {
    model.onChange(() => this.post());
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = { enableScripts: true };
    view.webview.html = profileHtml(nonce());
    view.webview.onDidReceiveMessage((m: { type: string; object?: string }) => {
      if (m.type === 'open' && m.object) {
        const row = this.model.get(m.object);
        if (row) this.open(row);
      } else if (m.type === 'ready') {
        this.post();
      }
    });
    view.onDidChangeVisibility(() => this.post());
  }

  reveal(): void {
    this.view?.show?.(true);
  }

  private post(): void {
    void this.view?.webview.postMessage({ type: 'rows', rows: viewRows(this.model), live: this.model.running,
      runDir: this.model.runDir, status: statusLine(this.model) });
  }
}

/** The line above the table: whose figures these are. */
export function statusLine(model: ProfileModel): string {
  if (model.running) {
    const seq = model.sequencerMigrations ? `; the sequencer moved ${model.sequencerMigrations} times` : '';
    return `Run in progress (live: the newest second, summed over nodes${seq}).`;
  }
  if (!model.runDir) return '';
  return model.live ? `Last live figures of ${model.runDir}.` : `Final report of ${model.runDir}: figures over the whole run.`;
}

function nonce(): string {
  let s = '';
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < 24; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

export function profileHtml(n: string): string {
  const header = COLUMNS.map((c) => `<th data-k="${c.key}"${c.hide ? ` class="c${c.hide}"` : ''}${c.title ? ` title="${c.title}"` : ''}>${c.label}</th>`).join('');
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${n}';">
<style>
 body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);padding:4px}
 table{border-collapse:collapse;width:100%} th,td{padding:2px 4px;text-align:right;white-space:nowrap}
 th:first-child,td:first-child,th:nth-child(2),td:nth-child(2){text-align:left}
 /* the object column takes what the figures leave and cuts long names with an ellipsis (the row's tooltip has it) */
 th:first-child,td:first-child{width:100%;max-width:0;overflow:hidden;text-overflow:ellipsis}
 th{cursor:pointer;border-bottom:1px solid var(--vscode-panel-border);user-select:none}
 tbody tr{cursor:pointer} summary{cursor:pointer;margin:6px 0 2px;opacity:.8} tbody tr:hover{background:var(--vscode-list-hoverBackground)}
 .note{opacity:.75;font-size:90%;margin:4px 0} .empty{opacity:.7;margin:8px 0}
 /* narrow views (the side bar's default width) drop the secondary columns; the row's tooltip keeps every figure */
 @media (max-width:${WIDE_PX}px){.c2{display:none}}
 @media (max-width:${NARROW_PX}px){.c1{display:none}}
 #chart .bar{height:12px;background:var(--vscode-charts-blue,#3794ff);margin:2px 0}
 #chart .lbl,#places .lbl{font-size:85%}
 .suggest{cursor:pointer;margin:2px 0 6px;padding:3px 6px;border-left:3px solid var(--vscode-editorInfo-foreground,#3794ff);background:var(--vscode-textBlockQuote-background)}
 .strip{display:flex;height:14px;margin:2px 0} .seg{height:100%;font-size:80%;line-height:14px;color:#fff;overflow:hidden;padding-left:2px;box-sizing:border-box}
</style></head><body>
<div class="note" id="note">${LAG_NOTE}</div>
<div id="status" class="note"></div>
<div id="suggest"></div>
<table id="t"><thead><tr>${header}</tr></thead><tbody id="tb"></tbody></table>
<div id="empty" class="empty"></div>
<details id="internalBox"><summary id="internalTitle"></summary>
<table id="ti"><thead><tr>${header}</tr></thead><tbody id="tbi"></tbody></table></details>
<h4>Activity by object (the count column)</h4><div id="chart"></div>
<h4 id="placesTitle">Remote objects: location over time and calls by caller node</h4><div id="places"></div>
<script nonce="${n}">
 const vscode = acquireVsCodeApi();
 const columns = ${JSON.stringify(COLUMNS)};
 let rows = [], key = columns.findIndex(c => c.key === 'operations'), desc = true, live = false, runDir = undefined;
 function fill(tb, list){ tb.innerHTML = '';
   for (const r of list){ const tr = document.createElement('tr'); tr.dataset.object = r.object; tr.title = r.title;
     r.cells.forEach((text, i) => { const td = document.createElement('td'); td.textContent = text;
       if (columns[i].hide) td.className = 'c' + columns[i].hide; tr.appendChild(td); });
     tr.onclick = () => vscode.postMessage({type:'open', object:r.object}); tb.appendChild(tr); } }
 function render(){
   const sorted = rows.slice().sort((a,b)=>{ const x=a.sort[key], y=b.sort[key];
     const c = (typeof x === 'number' || typeof y === 'number') ? (x??-1)-(y??-1) : String(x??'').localeCompare(String(y??''));
     return desc ? -c : c; });
   const mine = sorted.filter(r => !r.internal), own = sorted.filter(r => r.internal);
   fill(document.getElementById('tb'), mine); fill(document.getElementById('tbi'), own);
   document.getElementById('internalBox').style.display = own.length ? 'block' : 'none';
   document.getElementById('internalTitle').textContent = "Cumulus's own objects (" + own.length + ')';
   const empty = document.getElementById('empty');
   empty.textContent = ${JSON.stringify(EMPTY)}[live ? 'live' : runDir ? 'report' : 'none'];
   empty.style.display = mine.length ? 'none' : 'block';
   const chart = document.getElementById('chart'); chart.innerHTML = '';
   const max = Math.max(1, ...mine.map(r => r.bar.value));
   for (const r of mine){ const l = document.createElement('div'); l.className='lbl'; l.textContent = r.bar.label;
     const b = document.createElement('div'); b.className='bar'; b.style.width = (100*r.bar.value/max)+'%'; chart.appendChild(l); chart.appendChild(b); }
   renderSuggestions(); renderPlaces();
 }
 const palette = ['#3794ff','#f14c4c','#23d18b','#cca700','#b180d7','#29b8db','#d670d6','#8b949e'];
 function renderSuggestions(){ const box = document.getElementById('suggest'); box.innerHTML = '';
   for (const r of rows){ if (!r.suggestion) continue; const d = document.createElement('div'); d.className = 'suggest';
     d.textContent = r.suggestion.message; d.title = 'suggested by the profiler; click to open where the object is created';
     d.onclick = () => vscode.postMessage({type:'open', object:r.object}); box.appendChild(d); } }
 function renderPlaces(){ const box = document.getElementById('places'); box.innerHTML = '';
   const placed = rows.filter(r => !r.internal && r.location && r.location.length);
   document.getElementById('placesTitle').style.display = placed.length ? 'block' : 'none';
   for (const r of placed){ const l = document.createElement('div'); l.className = 'lbl';
     l.textContent = r.object + (r.node >= 0 ? ' · on node ' + r.node + ' at the end' : '') + (r.moves ? ' · ' + r.moves + (r.moves === 1 ? ' move' : ' moves') : '');
     const strip = document.createElement('div'); strip.className = 'strip';
     for (const s of r.location){ const seg = document.createElement('div'); seg.className = 'seg';
       seg.style.width = Math.max(0.5, s.percent) + '%'; seg.style.background = palette[Math.abs(s.node) % palette.length];
       seg.title = 'node ' + s.node + ' from +' + s.fromSec.toFixed(3) + ' s to +' + s.toSec.toFixed(3) + ' s';
       seg.textContent = s.percent > 12 ? 'node ' + s.node : ''; strip.appendChild(seg); }
     const c = document.createElement('div'); c.className = 'note'; c.textContent = 'calls by caller: ' + (r.callers || 'none recorded');
     box.appendChild(l); box.appendChild(strip); box.appendChild(c); } }
 document.querySelectorAll('th').forEach(th => th.onclick = () => { const k = columns.findIndex(c => c.key === th.dataset.k);
   desc = key === k ? !desc : true; key = k; render(); });
 window.addEventListener('message', e => { const m = e.data; if (m.type === 'rows'){ rows = m.rows; live = m.live; runDir = m.runDir;
   document.getElementById('status').textContent = m.status || '';
   render(); } });
 vscode.postMessage({type:'ready'});
</script></body></html>`;
}
