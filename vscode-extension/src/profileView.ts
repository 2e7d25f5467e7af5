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
  { key: 'ops', label: 'calls/writes', title: 'final report: remote calls, replicated writes or tuple moves + observes' },
  { key: 'writesPerSec', label: 'rate/s', title: 'live, newest one-second windows summed over nodes: replicated writes/s of a cloud, calls/s of a remote object, misses/s of an array' },
  { key: 'p99Us', label: 'p99 µs' },
  { key: 'migrations', label: 'migrations', hide: 2 },
  { key: 'moves', label: 'moves', title: 'remote objects: migrations that moved it during the run', hide: 2 },
  { key: 'misses', label: 'misses', hide: 2 },
  { key: 'bytes', label: 'bytes', hide: 2 },
];

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
    void this.view?.webview.postMessage({ type: 'rows', rows: this.model.all(), live: this.model.running, runDir: this.model.runDir });
  }
}

function nonce(): string {
  let s = '';
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < 24; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

export function profileHtml(n: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${n}';">
<style>
 body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);padding:4px}
 table{border-collapse:collapse;width:100%} th,td{padding:2px 4px;text-align:right;white-space:nowrap}
 th:first-child,td:first-child,th:nth-child(2),td:nth-child(2){text-align:left}
 /* the object column takes what the figures leave and cuts long names with an ellipsis (the row's tooltip has it) */
 th:first-child,td:first-child{width:100%;max-width:0;overflow:hidden;text-overflow:ellipsis}
 th{cursor:pointer;border-bottom:1px solid var(--vscode-panel-border);user-select:none}
 tbody tr{cursor:pointer} tbody tr:hover{background:var(--vscode-list-hoverBackground)}
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
<table id="t"><thead><tr>${COLUMNS.map((c) => `<th data-k="${c.key}"${c.hide ? ` class="c${c.hide}"` : ''}${c.title ? ` title="${c.title}"` : ''}>${c.label}</th>`).join('')}
</tr></thead><tbody></tbody></table>
<div id="empty" class="empty"></div>
<h4>Traffic by object</h4><div id="chart"></div>
<h4 id="placesTitle">Remote objects: location over time and calls by caller node</h4><div id="places"></div>
<script nonce="${n}">
 const vscode = acquireVsCodeApi();
 const columns = ${JSON.stringify(COLUMNS)};
 let rows = [], key = 'ops', desc = true, live = false, runDir = undefined;
 const num = v => v === undefined || v === null ? '' : (typeof v === 'number' ? (Number.isInteger(v) ? v.toLocaleString('en') : v.toFixed(1)) : String(v));
 function value(r, k){ if (k === 'p99Us') return r.p99Us ?? r.p99WriteUs; if (k === 'ops') return r.calls ?? r.writes ?? r.tupleOps; return r[k]; }
 function render(){
   const sorted = rows.slice().sort((a,b)=>{ const x=value(a,key), y=value(b,key);
     const c = (typeof x === 'number' || typeof y === 'number') ? (x??-1)-(y??-1) : String(x??'').localeCompare(String(y??''));
     return desc ? -c : c; });
   const tb = document.querySelector('tbody'); tb.innerHTML = '';
   for (const r of sorted){ const tr = document.createElement('tr'); tr.dataset.object = r.object;
     const figures = columns.filter(c => c.key !== 'object' && value(r, c.key) !== undefined && value(r, c.key) !== null)
       .map(c => c.label + ' ' + num(value(r, c.key)));
     tr.title = r.object + (figures.length ? '\\n' + figures.join(' · ') : '') + '\\n'
       + (r.source ? 'open ' + r.source.uri.split('/').pop() + ':' + (r.source.line+1) : 'open the object\\'s source');
     for (const c of columns){
       const td = document.createElement('td'); td.textContent = num(value(r,c.key)); if (c.hide) td.className = 'c' + c.hide;
       tr.appendChild(td); }
     tr.onclick = () => vscode.postMessage({type:'open', object:r.object}); tb.appendChild(tr); }
   const empty = document.getElementById('empty');
   empty.textContent = ${JSON.stringify(EMPTY)}[live ? 'live' : runDir ? 'report' : 'none'];
   empty.style.display = rows.length ? 'none' : 'block';
   const chart = document.getElementById('chart'); chart.innerHTML = '';
   const metric = r => (value(r,'ops') ?? 0) + (r.writesPerSec ?? 0);
   const max = Math.max(1, ...rows.map(metric));
   for (const r of sorted){ const l = document.createElement('div'); l.className='lbl'; l.textContent = r.object + ' ' + num(metric(r));
     const b = document.createElement('div'); b.className='bar'; b.style.width = (100*metric(r)/max)+'%'; chart.appendChild(l); chart.appendChild(b); }
   renderSuggestions(); renderPlaces();
 }
 const palette = ['#3794ff','#f14c4c','#23d18b','#cca700','#b180d7','#29b8db','#d670d6','#8b949e'];
 function renderSuggestions(){ const box = document.getElementById('suggest'); box.innerHTML = '';
   for (const r of rows){ if (!r.suggestion) continue; const d = document.createElement('div'); d.className = 'suggest';
     d.textContent = r.suggestion.message; d.title = 'suggested by the profiler; click to open where the object is created';
     d.onclick = () => vscode.postMessage({type:'open', object:r.object}); box.appendChild(d); } }
 function renderPlaces(){ const box = document.getElementById('places'); box.innerHTML = '';
   const placed = rows.filter(r => r.location && r.location.length);
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
 document.querySelectorAll('th').forEach(th => th.onclick = () => { const k = th.dataset.k; desc = key === k ? !desc : true; key = k; render(); });
 window.addEventListener('message', e => { const m = e.data; if (m.type === 'rows'){ rows = m.rows; live = m.live; runDir = m.runDir;
   document.getElementById('status').textContent = m.live ? 'Run in progress (live).' : (m.runDir ? 'Final report of ' + m.runDir : '');
   render(); } });
 vscode.postMessage({type:'ready'});
</script></body></html>`;
}
