// The Cluster Run view: the run and its nodes with their state; one output channel per node.
import * as vscode from 'vscode';
import { NodeOutput, RunStatus } from './protocol';

export type NodeState = 'starting' | 'running' | 'exited' | 'failed' | 'stopped' | 'not started';

/**
 * The run's one state, from which the status bar, the run's row and the node rows all take theirs: the server's
 * states (starting, running, finished, failed) plus `stopping` (Stop Run was asked) and `stopped` (the run ended
 * after a stop, or by SIGINT/SIGTERM: exit 130 or 143).
 */
export type RunState = 'starting' | 'running' | 'stopping' | 'stopped' | 'finished' | 'failed';

/** Exit codes of a launcher ended by a signal a stop sends: SIGINT (Ctrl-C) and SIGTERM (Stop Run). */
export const STOP_EXIT_CODES: readonly number[] = [130, 143];

export interface RunInfo {
  mainClass: string;
  nodes: number;
  state: RunState;
  exitCode?: number | null;
  message?: string | null;
  runDir?: string | null;
  /** When the run failed: the launcher's own error output (its stderr lines), for the tooltip. */
  details?: string[];
}

/** The launcher's stderr lines that are not errors: its run directory, warnings, live-profile notes. */
const LAUNCHER_NOISE = /^cumulus: (run \S+ directory:|warning:|live |no live profile)/;

/**
 * Why a run failed, from the launcher's stderr lines (node -1): its last `cumulus run: ...` line (the CLI's errors:
 * the restriction pre-check, a missing main class, bad options), else its last `cumulus: ...` line (a node exited
 * with an error, a timeout, a stop). The pre-check's summary gets its first finding appended.
 */
export function failureReason(lines: string[]): string | undefined {
  const cli = lines.filter((l) => /^cumulus run: /.test(l));
  if (cli.length) {
    const last = cli[cli.length - 1];
    const finding = lines.find((l) => /: error (CUM\d+ |cannot read)/.test(l));
    return finding && /nothing was started/.test(last) ? `${last} — ${finding.trim()}` : last;
  }
  const launcher = lines.filter((l) => /^cumulus: /.test(l) && !LAUNCHER_NOISE.test(l));
  if (launcher.length) {
    return launcher[launcher.length - 1].replace(/; last output:$/, '');
  }
  return undefined;
}

export class RunModel {
  run?: RunInfo;
  nodeStates: NodeState[] = [];
  lines: number[] = [];
  /** The launcher's stderr lines of this run (the last 200). */
  launcherErrors: string[] = [];
  /** Whether the launcher got as far as starting nodes (it named the run directory, or a node wrote). */
  launched = false;
  /** Stop Run was asked for this run: however it ends but cleanly, it ends `stopped`. */
  private stopAsked = false;
  private listeners: (() => void)[] = [];

  onChange(f: () => void): void {
    this.listeners.push(f);
  }

  private changed(): void {
    for (const f of this.listeners) f();
  }

  start(mainClass: string, nodes: number): void {
    this.run = { mainClass, nodes, state: 'starting' };
    this.stopAsked = false;
    this.nodeStates = Array.from({ length: nodes }, () => 'starting' as NodeState);
    this.lines = Array.from({ length: nodes }, () => 0);
    this.launcherErrors = [];
    this.launched = false;
    this.changed();
  }

  output(o: NodeOutput): void {
    if (o.node >= 0 || /^cumulus: run \S+ directory: /.test(o.line)) this.launched = true;
    if (o.node < 0 && o.stream === 'stderr') {
      this.launcherErrors.push(o.line);
      if (this.launcherErrors.length > 200) this.launcherErrors.shift();
    }
    if (o.node >= 0) {
      while (this.nodeStates.length <= o.node) {
        this.nodeStates.push('starting');
        this.lines.push(0);
      }
      if (this.nodeStates[o.node] === 'starting') this.nodeStates[o.node] = 'running';
      this.lines[o.node]++;
      this.changed();
    }
  }

  /** Stop Run was asked: the run shows `stopping` until the server reports its end. */
  stopping(): void {
    if (!this.running) return;
    this.stopAsked = true;
    this.run!.state = 'stopping';
    this.changed();
  }

  status(s: RunStatus): void {
    if (!this.run) this.run = { mainClass: '?', nodes: this.nodeStates.length, state: 'starting' };
    const ended = s.state === 'finished' || s.state === 'failed';
    const stopped = ended && (s.exitCode ?? 0) !== 0
      && (this.stopAsked || (s.exitCode != null && STOP_EXIT_CODES.includes(s.exitCode)));
    this.run.state = stopped ? 'stopped'
      : this.run.state === 'stopping' && !ended ? 'stopping' : s.state as RunState;
    this.run.exitCode = s.exitCode;
    this.run.message = s.message;
    this.run.runDir = s.runDir;
    this.run.details = undefined;
    if (stopped) {
      this.run.message = failureReason(this.launcherErrors)
        ?? (this.stopAsked ? 'stopped by Stop Run' : 'stopped by a signal (Ctrl-C or SIGTERM)');
      this.run.details = this.launcherErrors.slice(-20);
    } else if (s.state === 'failed') {
      // the server says "run ended with exit code N"; the launcher's own words say why
      const why = failureReason(this.launcherErrors);
      if (why) this.run.message = why;
      this.run.details = this.launcherErrors.slice(-20);
    }
    if (s.state === 'running') {
      this.nodeStates = this.nodeStates.map((n) => (n === 'starting' ? 'running' : n));
    } else if (ended) {
      const end: NodeState = stopped ? 'stopped' : s.state === 'finished' && (s.exitCode ?? 0) === 0 ? 'exited' : 'failed';
      // a launcher that failed before starting nodes (pre-check, missing main class) leaves them 'not started';
      // a stopped run's nodes are all 'stopped', whether or not they had started
      this.nodeStates = this.nodeStates.map(() => (s.state === 'failed' && !stopped && !this.launched ? 'not started' : end));
    }
    this.changed();
  }

  get running(): boolean {
    return !!this.run && (this.run.state === 'starting' || this.run.state === 'running' || this.run.state === 'stopping');
  }
}

export function statusText(m: RunModel): string {
  const r = m.run;
  if (!r) return '$(cloud) Cumulus';
  return `${stateIcon(r)} Cumulus: ${r.state === 'starting' ? `starting ${r.nodes} nodes`
    : r.state === 'running' ? `running on ${r.nodes} nodes` : stateLabel(r)}`;
}

/** The run's state in words, the same in the status bar and the run's row: `failed (exit 3)`, `stopped`. */
export function stateLabel(r: RunInfo): string {
  switch (r.state) {
    case 'finished': return (r.exitCode ?? 0) === 0 ? 'finished' : `exit ${r.exitCode}`;
    case 'failed': return `failed${r.exitCode != null ? ` (exit ${r.exitCode})` : ''}`;
    case 'stopping': return 'stopping…';
    default: return r.state;
  }
}

function stateIcon(r: RunInfo): string {
  switch (r.state) {
    case 'starting': case 'running': case 'stopping': return '$(sync~spin)';
    case 'finished': return (r.exitCode ?? 0) === 0 ? '$(check)' : '$(error)';
    case 'stopped': return '$(debug-stop)';
    default: return '$(error)';
  }
}

type Item = { kind: 'run' } | { kind: 'node'; node: number } | { kind: 'empty' };

export class RunTreeProvider implements vscode.TreeDataProvider<Item> {
  private emitter = new vscode.EventEmitter<Item | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly model: RunModel) {
    model.onChange(() => this.emitter.fire(undefined));
  }

  getChildren(element?: Item): Item[] {
    if (element) return [];
    if (!this.model.run) return [{ kind: 'empty' }];
    return [{ kind: 'run' }, ...this.model.nodeStates.map((_, node) => ({ kind: 'node' as const, node }))];
  }

  getTreeItem(element: Item): vscode.TreeItem {
    if (element.kind === 'empty') {
      const t = new vscode.TreeItem('No run yet — Cumulus: Run on Cluster…');
      t.command = { command: 'cumulus.runOnCluster', title: 'Run on Cluster…' };
      return t;
    }
    const r = this.model.run!;
    if (element.kind === 'run') {
      const t = new vscode.TreeItem(`${r.mainClass} on ${r.nodes} nodes: ${stateLabel(r)}`);
      t.description = r.message ?? undefined;
      t.tooltip = [r.message, ...(r.details ?? []), r.runDir ? `run directory ${r.runDir}` : undefined]
        .filter((x) => x).join('\n') || undefined;
      t.iconPath = new vscode.ThemeIcon(this.model.running ? 'sync~spin' : r.state === 'stopped' ? 'debug-stop'
        : r.state === 'finished' && (r.exitCode ?? 0) === 0 ? 'pass' : 'error');
      return t;
    }
    const state = this.model.nodeStates[element.node];
    const t = new vscode.TreeItem(`node ${element.node}`);
    t.description = `${state} · ${this.model.lines[element.node]} lines`;
    t.contextValue = 'node';
    t.iconPath = new vscode.ThemeIcon(state === 'running' || state === 'starting' ? 'vm-running' : state === 'exited' ? 'vm-outline' : 'vm-active');
    t.command = { command: 'cumulus.showNodeOutput', title: 'Show Node Output', arguments: [element.node] };
    return t;
  }
}

/** One output channel per node (created when the node first writes), plus one for the launcher. */
export class NodeChannels {
  private channels = new Map<number, vscode.OutputChannel>();

  channel(node: number): vscode.OutputChannel {
    let c = this.channels.get(node);
    if (!c) {
      c = vscode.window.createOutputChannel(node < 0 ? 'Cumulus Run' : `Cumulus Node ${node}`);
      this.channels.set(node, c);
    }
    return c;
  }

  append(o: NodeOutput): void {
    this.channel(o.node).appendLine(o.stream === 'stderr' ? `[err] ${o.line}` : o.line);
  }

  clear(): void {
    for (const c of this.channels.values()) c.clear();
  }

  dispose(): void {
    for (const c of this.channels.values()) c.dispose();
    this.channels.clear();
  }
}
