// The `cumulus` task type: "Run Task" offers a cluster run (and tasks.json may name nodes and a main class). A task
// runs exactly what "Cumulus: Run on Cluster…" runs and shows the run's output in its terminal until the run ends;
// terminating the task stops the run.
import * as vscode from 'vscode';
import * as P from './protocol';
import { RunState } from './runView';

export const TASK_TYPE = 'cumulus';

/** A `cumulus` task in tasks.json; mirrors `taskDefinitions` in package.json. */
export interface CumulusTaskDefinition extends vscode.TaskDefinition {
  type: typeof TASK_TYPE;
  /** Node JVMs; absent: asked (the last count is proposed). */
  nodes?: number;
  /** Main class (binary name); absent: the active editor's class with a main method, else asked. */
  mainClass?: string;
}

/** One event of the current run. */
export interface RunEvent {
  output?: P.NodeOutput;
  /** The server's status with the run view's state (which adds `stopping` and `stopped`) and reason. */
  status?: Omit<P.RunStatus, 'state'> & { state: RunState };
}

/** What a task needs of the extension. */
export interface RunHost {
  runOnCluster(args?: { nodes?: number; mainClass?: string }): Promise<boolean>;
  stopRun(): Promise<void>;
  onRunEvent(listener: (e: RunEvent) => void): () => void;
}

export class CumulusTaskProvider implements vscode.TaskProvider {
  constructor(private readonly host: RunHost) {}

  provideTasks(): vscode.Task[] {
    return [this.task({ type: TASK_TYPE })];
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const d = task.definition;
    return d.type === TASK_TYPE ? this.task(d as CumulusTaskDefinition, task.name) : undefined;
  }

  task(d: CumulusTaskDefinition, name?: string): vscode.Task {
    const label = name ?? `Run on Cluster${d.nodes ? ` (${d.nodes} nodes)` : ''}`;
    const t = new vscode.Task(d, vscode.TaskScope.Workspace, label, TASK_TYPE,
      new vscode.CustomExecution(async () => new RunTerminal(this.host, d)));
    t.detail = 'cumulus run --profile-stream: the run view, node output and the communication profile follow it';
    return t;
  }
}

/** The task's terminal: starts the run, echoes its output, closes with its exit code. */
export class RunTerminal implements vscode.Pseudoterminal {
  private readonly writes = new vscode.EventEmitter<string>();
  private readonly closes = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.writes.event;
  readonly onDidClose = this.closes.event;
  private unsubscribe?: () => void;
  private ended = false;

  constructor(private readonly host: RunHost, private readonly d: CumulusTaskDefinition) {}

  async open(): Promise<void> {
    this.unsubscribe = this.host.onRunEvent((e) => this.onEvent(e));
    const started = await this.host.runOnCluster({ nodes: this.d.nodes, mainClass: this.d.mainClass });
    if (!started) this.end(1, 'the run did not start (cancelled, or see the Cluster Run view)');
  }

  private onEvent(e: RunEvent): void {
    if (e.output) {
      const prefix = e.output.node >= 0 ? `[${e.output.node}] ` : e.output.stream === 'stderr' ? '[err] ' : '';
      this.line(prefix + e.output.line);
    }
    const s = e.status;
    if (s && (s.state === 'finished' || s.state === 'failed' || s.state === 'stopped')) {
      const label = s.state === 'stopped' ? 'stopped' : `${s.state}${s.exitCode != null ? ` (exit ${s.exitCode})` : ''}`;
      this.end(s.exitCode ?? 1, `run ${label}${s.message ? `: ${s.message}` : ''}`);
    }
  }

  private line(text: string): void {
    this.writes.fire(text.replace(/\r?\n/g, '\r\n') + '\r\n');
  }

  private end(code: number, message: string): void {
    if (this.ended) return;
    this.ended = true;
    this.unsubscribe?.();
    this.line(message);
    this.closes.fire(code);
  }

  /** The user closed the terminal or terminated the task: the run stops too. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.unsubscribe?.();
    void this.host.stopRun();
  }
}
