// The "Attached clusters" view: the user's standing clusters, each with its servers, clients and the clients'
// objects, as `cumulus cluster list --json` and `cumulus ps NAME --json` report them; refreshed while the view is
// visible. The figures are the CLI's (docs/CLI.md, "Administration"); this module only shows them.
import * as vscode from 'vscode';

/** One row of `cumulus cluster list --json`. */
export interface ClusterEntry {
  name: string; state: 'serving' | 'stale' | 'damaged'; servers?: number;
  /** The servers' hosts, comma-separated (`localhost` on this host only). */
  hosts?: string
}

/** `state`: `gone` for a server whose process ended (the others serve on); its figures are then -1. */
export interface PsServer { server: number; pid: number; cpuLoad: number; loadAverage: number; heapUsedBytes: number;
  heapMaxBytes: number; threads: number; uptimeMs: number; objects: number; state?: 'serving' | 'gone' }
/** `name`: the principal the client attached as (absent for an owner no server lists as attached any more). */
export interface PsClient { client: number; name?: string; pid: number; servers: number; objects: number }
export interface PsObject { id: number; name: string; owner: number; className: string; server: number; calls: number;
  callsPerSecond: number }
/** `cumulus ps NAME --json`. */
export interface PsView { cluster: string; servers: PsServer[]; clients: PsClient[]; objects: PsObject[] }

/** Runs the `cumulus` command line with `args` and resolves to its standard output (rejects with its error). */
export type CumulusRunner = (args: string[]) => Promise<string>;

function isArray(v: unknown): v is unknown[] { return Array.isArray(v); }

/** Parses `cluster list --json`; throws on anything else. */
export function parseClusterList(json: string): ClusterEntry[] {
  const v = JSON.parse(json);
  if (!isArray(v) || !v.every((e: any) => typeof e?.name === 'string' && typeof e?.state === 'string')) {
    throw new Error('cumulus cluster list --json printed no list of clusters');
  }
  return v as ClusterEntry[];
}

/** Parses `ps NAME --json`; throws on anything else. */
export function parsePs(json: string): PsView {
  const v = JSON.parse(json);
  if (typeof v?.cluster !== 'string' || !isArray(v.servers) || !isArray(v.clients) || !isArray(v.objects)) {
    throw new Error('cumulus ps --json printed no cluster view');
  }
  return v as PsView;
}

/** What the view knows of one cluster: its view, or why there is none. */
export interface ClusterState { entry: ClusterEntry; view?: PsView; error?: string }

export type ClusterItem =
  | { kind: 'cluster'; name: string }
  | { kind: 'group'; name: string; group: 'servers' | 'clients' | 'objects' }
  | { kind: 'server'; name: string; server: number }
  | { kind: 'client'; name: string; client: number }
  | { kind: 'object'; name: string; id: number }
  | { kind: 'message'; text: string };

const MIB = 1024 * 1024;

export function serverText(s: PsServer): string {
  if (s.state === 'gone') {
    return 'gone: its process ended; the other servers serve on';
  }
  const cpu = s.cpuLoad < 0 ? '-' : `${Math.round(s.cpuLoad * 100)}%`;
  const load = s.loadAverage < 0 ? '-' : s.loadAverage.toFixed(2);
  return `CPU ${cpu} · load ${load} · heap ${Math.round(s.heapUsedBytes / MIB)}/${Math.round(s.heapMaxBytes / MIB)} MiB · ${s.objects} object${s.objects === 1 ? '' : 's'}`;
}

export function objectText(o: PsObject): string {
  const simple = o.className.substring(o.className.lastIndexOf('.') + 1);
  return `${simple} · server ${o.server} · client ${o.owner} · ${o.callsPerSecond.toFixed(1)} calls/s`;
}

/** The clusters and their latest views; tells its listeners when they change. */
export class ClustersModel {
  clusters: ClusterState[] = [];
  /** Why the list itself could not be read, if it could not. */
  error?: string;
  private listeners: (() => void)[] = [];

  onChange(l: () => void): void { this.listeners.push(l); }

  set(clusters: ClusterState[], error?: string): void {
    this.clusters = clusters;
    this.error = error;
    for (const l of this.listeners) l();
  }

  find(name: string): ClusterState | undefined { return this.clusters.find((c) => c.entry.name === name); }
}

/** Reads the clusters and each serving one's view through `run`, into `model`. */
export async function refreshClusters(run: CumulusRunner, model: ClustersModel): Promise<void> {
  let entries: ClusterEntry[];
  try {
    entries = parseClusterList(await run(['cluster', 'list', '--json']));
  } catch (e) {
    model.set([], e instanceof Error ? e.message : String(e));
    return;
  }
  const states = await Promise.all(entries.map(async (entry): Promise<ClusterState> => {
    if (entry.state !== 'serving') return { entry };
    try {
      return { entry, view: parsePs(await run(['ps', entry.name, '--json'])) };
    } catch (e) {
      return { entry, error: e instanceof Error ? e.message : String(e) };
    }
  }));
  model.set(states);
}

/**
 * Refreshes the model every `periodMs` while started (the view is visible), one refresh at a time; stops when
 * hidden. `schedule` and `cancel` are the timer (injected for tests).
 */
export class ClustersPoller {
  private timer: unknown;
  private running = false;
  private busy: Promise<void> | undefined;

  constructor(private readonly refresh: () => Promise<void>, private readonly periodMs: number,
              private readonly schedule: (f: () => void, ms: number) => unknown = setTimeout,
              private readonly cancel: (t: unknown) => void = (t) => clearTimeout(t as NodeJS.Timeout)) {}

  get started(): boolean { return this.running; }

  /** Refreshes now and then every period, until stopped. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.tick();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== undefined) this.cancel(this.timer);
    this.timer = undefined;
  }

  /** The refresh under way, if any (tests wait on it). */
  get pending(): Promise<void> | undefined { return this.busy; }

  private tick(): void {
    if (!this.running || this.busy) return;
    this.busy = this.refresh().catch(() => undefined).finally(() => {
      this.busy = undefined;
      if (this.running) this.timer = this.schedule(() => this.tick(), this.periodMs);
    });
  }
}

export class ClustersTreeProvider implements vscode.TreeDataProvider<ClusterItem> {
  private emitter = new vscode.EventEmitter<ClusterItem | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly model: ClustersModel) {
    model.onChange(() => this.emitter.fire(undefined));
  }

  getChildren(element?: ClusterItem): ClusterItem[] {
    if (!element) {
      if (this.model.error) return [{ kind: 'message', text: this.model.error }];
      if (this.model.clusters.length === 0) return [{ kind: 'message', text: 'No standing clusters (cumulus cluster start NAME --nodes N)' }];
      return this.model.clusters.map((c) => ({ kind: 'cluster', name: c.entry.name }));
    }
    const state = element.kind === 'message' ? undefined : this.model.find(element.name);
    const view = state?.view;
    switch (element.kind) {
      case 'cluster':
        if (state?.error) return [{ kind: 'message', text: state.error }];
        if (!view) return [];
        return (['servers', 'clients', 'objects'] as const).map((group) => ({ kind: 'group', name: element.name, group }));
      case 'group':
        if (!view) return [];
        if (element.group === 'servers') return view.servers.map((s) => ({ kind: 'server', name: element.name, server: s.server }));
        if (element.group === 'clients') return view.clients.map((c) => ({ kind: 'client', name: element.name, client: c.client }));
        return view.objects.map((o) => ({ kind: 'object', name: element.name, id: o.id }));
      case 'client':
        return (view?.objects ?? []).filter((o) => o.owner === element.client)
          .map((o) => ({ kind: 'object', name: element.name, id: o.id }));
      default:
        return [];
    }
  }

  getTreeItem(element: ClusterItem): vscode.TreeItem {
    const None = vscode.TreeItemCollapsibleState.None;
    const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    const Expanded = vscode.TreeItemCollapsibleState.Expanded;
    if (element.kind === 'message') {
      const t = new vscode.TreeItem(element.text, None);
      t.iconPath = new vscode.ThemeIcon('info');
      return t;
    }
    const state = this.model.find(element.name);
    const view = state?.view;
    switch (element.kind) {
      case 'cluster': {
        const t = new vscode.TreeItem(element.name, Expanded);
        const where = state?.entry.hosts && state.entry.hosts !== 'localhost' ? ` on ${state.entry.hosts}` : '';
        t.description = view ? `${view.servers.length} servers${where} · ${view.clients.length} clients · ${view.objects.length} objects`
          : state?.entry.state ?? '';
        t.iconPath = new vscode.ThemeIcon(view ? 'server-environment' : 'warning');
        t.contextValue = 'cluster';
        return t;
      }
      case 'group': {
        const count = view ? view[element.group].length : 0;
        const t = new vscode.TreeItem(element.group[0].toUpperCase() + element.group.substring(1), count > 0 ? Collapsed : None);
        t.description = String(count);
        return t;
      }
      case 'server': {
        const s = view!.servers.find((x) => x.server === element.server)!;
        const t = new vscode.TreeItem(`server ${s.server}`, None);
        t.description = serverText(s);
        t.tooltip = `pid ${s.pid} · ${s.threads} threads · up ${Math.round(s.uptimeMs / 1000)} s`;
        t.iconPath = new vscode.ThemeIcon('vm-running');
        return t;
      }
      case 'client': {
        const c = view!.clients.find((x) => x.client === element.client)!;
        const t = new vscode.TreeItem(c.name ? `client ${c.client} (${c.name})` : `client ${c.client}`,
          c.objects > 0 ? Collapsed : None);
        t.description = `pid ${c.pid} · ${c.objects} object${c.objects === 1 ? '' : 's'}`;
        t.iconPath = new vscode.ThemeIcon('person');
        t.contextValue = 'client';
        return t;
      }
      case 'object': {
        const o = view!.objects.find((x) => x.id === element.id)!;
        const t = new vscode.TreeItem(o.name, None);
        t.description = objectText(o);
        t.tooltip = `${o.className} #${o.id}\nowner: client ${o.owner}\nserver ${o.server}\n${o.calls} calls`;
        t.iconPath = new vscode.ThemeIcon('symbol-object');
        t.contextValue = 'object';
        return t;
      }
    }
  }
}
