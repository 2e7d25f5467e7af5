// Entry point: starts the Cumulus language server where the workspace uses Cumulus, and wires commands, the run view,
// the profile view, the status bar and the `cumulus` task type (cluster runs from "Run Task").
import * as cp from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { ClustersModel, ClustersPoller, ClustersTreeProvider, CumulusRunner, refreshClusters } from './clustersView';
import { findJdk } from './jdk';
import { findObjectLine, ProfileModel, ProfileRow } from './profile';
import { ProfileRecord } from './profileSchema';
import { LAG_NOTE, ProfileViewProvider } from './profileView';
import * as P from './protocol';
import { NodeChannels, RunModel, RunTreeProvider, stateLabel, statusText } from './runView';
import { findCumulusRoot, findServer, mainClassOf, readTemplates, ServerFiles, serverLaunch, validateNodes } from './server';
import { CumulusTaskProvider, RunEvent, TASK_TYPE } from './tasks';
import { cumulusEvidence, NOT_CUMULUS_MESSAGE, WATCH_GLOB } from './workspace';

/** The part of a language client the extension uses (vscode-languageclient's LanguageClient, or a test double). */
export interface Client {
  sendRequest(method: string, params?: unknown): Promise<unknown>;
  sendNotification(method: string, params?: unknown): Promise<void> | void;
  onNotification(method: string, handler: (params: any) => void): unknown;
  stop(): Promise<void>;
}

/** How the server is started: the JDK, the server's files and its initialization options. */
export interface ServerStart {
  javaHome: string;
  server: ServerFiles;
  options: P.InitializationOptions;
}

export interface Deps {
  startClient?: (context: vscode.ExtensionContext, start: ServerStart, log: vscode.OutputChannel) => Promise<Client>;
  /** Runs the `cumulus` command line (tests give a fake). */
  runCumulus?: CumulusRunner;
}

export const NODES_KEY = 'cumulus.lastNodes';
/** How often the "Attached clusters" view asks `cumulus ps` while it is visible. */
export const CLUSTERS_REFRESH_MS = 3000;
/** Prefix of the launcher's profile-channel lines (`cumulus run --profile-stream`); never shown as output. */
export const PROFILE_LINE = '@cumulus-profile ';
/** globalState key: the one-time notice recommending the Java extension pack was shown. */
export const JAVA_PACK_NOTICE_KEY = 'cumulus.javaPackNoticeShown';
export const JAVA_PACK = 'vscjava.vscode-java-pack';
/** Extensions that run a Java language server of their own (it reports Java's compile errors). */
export const JAVA_SERVERS = ['redhat.java', 'oracle.oracle-java', 'georgewfraser.vscode-javac'];
export const OPEN_SETTINGS = 'Open Settings';
/** The Java debugger extension whose `java` attach sessions debug a node (`cumulus run --debug`). */
export const JAVA_DEBUGGER = 'vscjava.vscode-java-debug';
export const INSTALL_JAVA_DEBUGGER = 'Show Debugger for Java';

/** The Java debugger extension's attach configuration for a node that waits for a debugger. */
export function attachConfiguration(ready: P.DebugReady): { type: string; request: string; name: string; hostName: string; port: number } {
  return { type: 'java', request: 'attach', name: `Cumulus node ${ready.node}`, hostName: ready.host, port: ready.port };
}

/** Node numbers to debug, from a quick pick's labels `node N`. */
export function debugNodesText(picked: string[]): string {
  return picked.map((l) => l.replace(/^node /, '')).join(',');
}

/** cumulus.javaErrors resolved: auto is on unless another Java language server is installed. */
export function javaErrorsOn(setting: string | undefined, installed: (id: string) => boolean): boolean {
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return !JAVA_SERVERS.some(installed);
}

/**
 * Where New Project proposes to create a project: beside the open workspace folder (its parent), or in the home
 * folder when none is open — never inside the open project. `cumulus-TEMPLATE`, numbered when that name is taken.
 */
export function newProjectDir(template: string, folders: string[], home: string,
                              exists: (p: string) => boolean = fs.existsSync): string {
  const base = folders.length ? path.dirname(folders[0]) : home;
  const name = `cumulus-${template}`;
  let dir = path.join(base, name);
  for (let i = 2; exists(dir); i++) dir = path.join(base, `${name}-${i}`);
  return dir;
}

export class CumulusExtension {
  readonly runModel = new RunModel();
  readonly clustersModel = new ClustersModel();
  readonly profile = new ProfileModel();
  readonly channels = new NodeChannels();
  readonly log: vscode.OutputChannel;
  readonly status: vscode.StatusBarItem;
  client?: Client;
  root?: string;
  /** The server was started (or tried) for this workspace: the status bar shows. */
  inUse = false;
  private starting = false;
  private sentJavaErrors?: boolean;
  private sentSingleVm?: boolean;
  private profileView: ProfileViewProvider;
  private runListeners = new Set<(e: RunEvent) => void>();

  constructor(private readonly context: vscode.ExtensionContext, private readonly deps: Deps) {
    this.log = vscode.window.createOutputChannel('Cumulus');
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    this.status.command = 'cumulus.showCommunicationProfile';
    this.status.text = statusText(this.runModel);
    this.status.tooltip = 'Cumulus cluster run';
    this.runModel.onChange(() => {
      this.status.text = statusText(this.runModel);
      const r = this.runModel.run;
      this.status.tooltip = r?.message ? `Cumulus cluster run: ${r.state}: ${r.message}` : 'Cumulus cluster run';
      void vscode.commands.executeCommand('setContext', 'cumulus.running', this.runModel.running);
    });
    this.profileView = new ProfileViewProvider(this.profile, (row) => void this.openSource(row));
    const s = context.subscriptions;
    s.push(this.log, this.status, { dispose: () => this.channels.dispose() });
    s.push(vscode.window.registerTreeDataProvider('cumulus.runView', new RunTreeProvider(this.runModel)));
    s.push(...this.clustersView());
    s.push(vscode.window.registerWebviewViewProvider(ProfileViewProvider.viewId, this.profileView,
      { webviewOptions: { retainContextWhenHidden: true } }));
    s.push(vscode.commands.registerCommand('cumulus.runOnCluster', (args?: { nodes?: number; mainClass?: string }) => this.runOnCluster(args)));
    s.push(vscode.commands.registerCommand('cumulus.debugOnCluster', (args?: { nodes?: number; mainClass?: string; debugNodes?: string }) => this.debugOnCluster(args)));
    s.push(vscode.commands.registerCommand('cumulus.stopRun', () => this.stopRun()));
    s.push(vscode.commands.registerCommand('cumulus.newProjectFromTemplate', () => this.newProject()));
    s.push(vscode.commands.registerCommand('cumulus.showCommunicationProfile', () => this.showProfile()));
    s.push(vscode.commands.registerCommand('cumulus.showNodeOutput', (node?: number) => this.channels.channel(node ?? 0).show(true)));
    s.push(vscode.commands.registerCommand('cumulus.restartServer', () => this.restart()));
    s.push(vscode.tasks.registerTaskProvider(TASK_TYPE, new CumulusTaskProvider(this)));
    s.push(vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('cumulus.javaErrors')) this.syncJavaErrors(); }));
    s.push(vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('cumulus.singleVm')) this.syncSingleVm(); }));
    s.push(vscode.extensions.onDidChange(() => this.syncJavaErrors()));
    // a build file or marker that appears or changes later (a dependency added) starts the server then; once tried,
    // Restart Language Server retries
    const watcher = vscode.workspace.createFileSystemWatcher(WATCH_GLOB);
    const recheck = () => { if (!this.inUse) void this.startIfCumulus(); };
    s.push(watcher, watcher.onDidCreate(recheck), watcher.onDidChange(recheck));
  }

  private config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('cumulus');
  }

  /** Starts the language server if the workspace uses Cumulus; otherwise says why not and waits for it to. */
  async startIfCumulus(): Promise<void> {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const evidence = cumulusEvidence(folders);
    if (!evidence) {
      this.log.appendLine(NOT_CUMULUS_MESSAGE);
      return;
    }
    this.log.appendLine(`Cumulus workspace: ${evidence}`);
    await this.startServer();
  }

  /** Starts the language server; shows an error that says what to do (with a button) when it cannot. */
  async startServer(): Promise<void> {
    if (this.client || this.starting) return;
    this.starting = true;
    try {
      await this.start();
    } finally {
      this.starting = false;
    }
  }

  private async start(): Promise<void> {
    this.inUse = true;
    this.status.show();
    const jdk = findJdk(this.config().get<string>('javaHome') || undefined);
    if ('error' in jdk) {
      this.fail(jdk.error, 'cumulus.javaHome');
      return;
    }
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const serverPath = this.config().get<string>('serverPath') || undefined;
    this.root = findCumulusRoot(serverPath, folders, process.env);
    const server = findServer(serverPath, this.context.extensionPath);
    if (!server) {
      this.fail(`The Cumulus language server is missing: it is not in this installation of the extension ` +
        `(${path.join(this.context.extensionPath, 'server', 'cumulus-lsp.jar')})${serverPath ? ` nor built in ${serverPath}` : ''}. ` +
        'Reinstall the extension, or set cumulus.serverPath to a Cumulus checkout built with ./build.', 'cumulus.serverPath');
      return;
    }
    const storage = this.context.storageUri ?? this.context.globalStorageUri;
    const options: P.InitializationOptions = {
      javaErrors: this.javaErrors(),
      singleVm: this.singleVm(),
      classpathCacheDir: storage ? path.join(storage.fsPath, 'classpath') : undefined,
      cumulusCommand: this.root ? path.join(this.root, 'cumulus') : undefined,
    };
    this.log.appendLine(`Starting the Cumulus language server (${server.origin}) with ${jdk.home} (Java ${jdk.major})`);
    const start = this.deps.startClient ?? startLanguageClient;
    try {
      this.client = await start(this.context, { javaHome: jdk.home, server, options }, this.log);
    } catch (e) {
      this.fail(`The Cumulus language server did not start: ${e instanceof Error ? e.message : e}`);
      return;
    }
    this.client.onNotification(P.NODE_OUTPUT, (o: P.NodeOutput) => this.onNodeOutput(o));
    this.client.onNotification(P.RUN_STATUS, (st: P.RunStatus) => this.onRunStatus(st));
    this.client.onNotification(P.PROFILE, (r: ProfileRecord) => this.onProfile(r));
    this.client.onNotification(P.DEBUG_READY, (r: P.DebugReady) => this.onDebugReady(r));
    this.sentJavaErrors = options.javaErrors;
    this.sentSingleVm = options.singleVm;
    this.recommendJavaPack();
  }

  /** An error in the log and a message; with a button that opens the setting that fixes it. */
  private fail(message: string, setting?: string): void {
    this.log.appendLine(message);
    if (!setting) {
      void vscode.window.showErrorMessage(message);
      return;
    }
    void vscode.window.showErrorMessage(message, OPEN_SETTINGS).then((pick) => {
      if (pick === OPEN_SETTINGS) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
    });
  }

  /** cumulus.javaErrors, with auto resolved against the installed extensions. */
  javaErrors(): boolean {
    return javaErrorsOn(this.config().get<string>('javaErrors'), (id) => vscode.extensions.getExtension(id) !== undefined);
  }

  /** Tells the server when cumulus.javaErrors or the set of Java language servers changed its answer. */
  syncJavaErrors(): void {
    const on = this.javaErrors();
    if (!this.client || on === this.sentJavaErrors) return;
    this.sentJavaErrors = on;
    const settings: P.ServerSettings = { cumulus: { javaErrors: on } };
    void this.client.sendNotification(P.DID_CHANGE_CONFIGURATION, { settings });
  }

  /** cumulus.singleVm: the workspace is a single-VM program, so the server checks rules CUM201-CUM207 too. */
  singleVm(): boolean {
    return this.config().get<boolean>('singleVm') === true;
  }

  /** Tells the server when cumulus.singleVm changed. */
  syncSingleVm(): void {
    const on = this.singleVm();
    if (!this.client || on === this.sentSingleVm) return;
    this.sentSingleVm = on;
    const settings: P.ServerSettings = { cumulus: { singleVm: on } };
    void this.client.sendNotification(P.DID_CHANGE_CONFIGURATION, { settings });
  }

  /** Once per installation, where no Java extension is installed: the Java extension pack does the rest of Java. */
  private recommendJavaPack(): void {
    const installed = [JAVA_PACK, ...JAVA_SERVERS].some((id) => vscode.extensions.getExtension(id) !== undefined);
    if (installed || this.context.globalState.get<boolean>(JAVA_PACK_NOTICE_KEY)) return;
    void this.context.globalState.update(JAVA_PACK_NOTICE_KEY, true);
    const show = 'Show Extension Pack for Java';
    void vscode.window.showInformationMessage('Cumulus checks cloud classes and reports Java compile errors. For ' +
      'completion, navigation, refactoring and debugging of Java, install the Extension Pack for Java.', show)
      .then((pick) => { if (pick === show) void vscode.commands.executeCommand('workbench.extensions.search', `@id:${JAVA_PACK}`); });
  }

  async restart(): Promise<void> {
    await this.client?.stop().catch(() => undefined);
    this.client = undefined;
    await this.startIfCumulus();
  }

  onNodeOutput(o: P.NodeOutput): void {
    if (o.line.startsWith(PROFILE_LINE)) {
      // a launcher's profile record that reached the output (a server that did not take it): the profile view's only
      this.onProfileLine(o.line.slice(PROFILE_LINE.length));
      return;
    }
    this.channels.append(o);
    this.runModel.output(o);
    this.emit({ output: o });
  }

  /** Follows the current run's output and status (the `cumulus` task's terminal does); returns the unsubscribe. */
  onRunEvent(listener: (e: RunEvent) => void): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  private emit(e: RunEvent): void {
    for (const l of [...this.runListeners]) l(e);
  }

  /** The server's run status: into the run model, whose one state the status bar, the views and the task show. */
  onRunStatus(s: P.RunStatus): void {
    const before = this.runModel.run?.state;
    this.runModel.status(s);
    const run = this.runModel.run!;
    const message = run.message ?? s.message;
    this.channels.channel(-1).appendLine(`run ${stateLabel(run)}${message ? `: ${message}` : ''}`);
    this.profile.running = this.runModel.running;
    if (s.runDir) this.profile.runDir = s.runDir;
    this.profile.refresh();
    this.emit({ status: { ...s, state: run.state, message } });
    if (run.state === 'failed' && before !== 'failed') {
      void vscode.window.showErrorMessage(`Cumulus run failed: ${message ?? 'see the Cumulus Run output'}`, 'Show Output')
        .then((pick) => { if (pick) this.channels.channel(-1).show(true); });
    }
  }

  private onProfileLine(json: string): void {
    try {
      const r = JSON.parse(json) as ProfileRecord;
      if (r && (r.type === 'window' || r.type === 'figures' || r.type === 'report')) this.onProfile(r);
    } catch {
      this.log.appendLine(`a profile line that is no record of the profile channel: ${json.slice(0, 200)}`);
    }
  }

  /** Objects whose source was looked for in this run. */
  private located = new Set<string>();

  /** One record of the run's profile channel (the cluster's live figures or the report): into the profile view. */
  onProfile(r: ProfileRecord): void {
    for (const object of this.profile.accept(r)) {
      // each object's source is looked for once a run; the runtime's own objects have none in the workspace
      if (this.profile.get(object)?.internal || this.located.has(object)) continue;
      this.located.add(object);
      void this.locate(object);
    }
  }

  private async locate(object: string): Promise<void> {
    if (this.profile.get(object)?.source) return;
    const files = await vscode.workspace.findFiles('**/*.java', '**/{target,node_modules}/**', 200);
    for (const f of files) {
      try {
        const text = Buffer.from(await vscode.workspace.fs.readFile(f)).toString('utf8');
        const line = findObjectLine(text, object);
        if (line >= 0) {
          this.profile.setSource(object, { uri: f.toString(), line });
          return;
        }
      } catch {
        // unreadable file
      }
    }
  }

  private async openSource(row: ProfileRow): Promise<void> {
    if (!row.source) {
      await this.locate(row.object);
      row = this.profile.get(row.object) ?? row;
    }
    if (!row.source) {
      void vscode.window.showInformationMessage(`No source line found for '${row.object}'.`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(row.source.uri));
    const pos = new vscode.Position(row.source.line, 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
  }

  /** The node count: asked with an input box, proposed from (and remembered in) workspaceState. */
  async askNodes(): Promise<number | undefined> {
    const last = this.context.workspaceState.get<number>(NODES_KEY) ?? this.config().get<number>('defaultNodes') ?? 2;
    const text = await vscode.window.showInputBox({
      title: 'Cumulus: Run on Cluster', prompt: 'Number of nodes (JVMs on this machine)', value: String(last),
      validateInput: validateNodes,
    });
    if (text === undefined || validateNodes(text)) return undefined;
    const n = Number(text);
    await this.context.workspaceState.update(NODES_KEY, n);
    return n;
  }

  /** The main class: the active editor's class when it has a main method, else asked. */
  async askMainClass(): Promise<string | undefined> {
    const editor = vscode.window.activeTextEditor;
    const fromEditor = editor && editor.document.languageId === 'java'
      ? mainClassOf(editor.document.getText(), editor.document.fileName) : undefined;
    if (fromEditor) return fromEditor;
    const last = this.context.workspaceState.get<string>('cumulus.lastMainClass') ?? '';
    const main = await vscode.window.showInputBox({
      title: 'Cumulus: Run on Cluster', prompt: 'Main class (binary name), e.g. org.example.Main', value: last,
      validateInput: (t) => (/^[\w$]+(\.[\w$]+)*$/.test(t.trim()) ? undefined : 'a class name like org.example.Main'),
    });
    if (main) await this.context.workspaceState.update('cumulus.lastMainClass', main.trim());
    return main?.trim() || undefined;
  }

  /** Which nodes to debug: a multi-select of the run's nodes (node 1 proposed where there is one: node 0 often only leads). */
  async askDebugNodes(nodes: number): Promise<string | undefined> {
    const items = Array.from({ length: nodes }, (_, i) => ({ label: `node ${i}`, picked: i === Math.min(1, nodes - 1) }));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Cumulus: Debug Node', placeHolder: 'Nodes to start under the debugger (they wait until it attaches)', canPickMany: true,
    }) as { label: string }[] | undefined;
    if (!picked || picked.length === 0) return undefined;
    return debugNodesText(picked.map((p) => p.label));
  }

  /** A cluster run with some nodes under the Java debugger: each is attached to as it starts listening. */
  async debugOnCluster(args?: { nodes?: number; mainClass?: string; debugNodes?: string }): Promise<boolean> {
    const nodes = args?.nodes ?? (await this.askNodes());
    if (!nodes) return false;
    const mainClass = args?.mainClass || (await this.askMainClass());
    if (!mainClass) return false;
    const debugNodes = args?.debugNodes ?? (await this.askDebugNodes(nodes));
    if (!debugNodes) return false;
    return this.runOnCluster({ nodes, mainClass }, debugNodes);
  }

  /** A node listens for a debugger: attach the Java debugger's session, or say what to install. */
  onDebugReady(ready: P.DebugReady): void {
    const where = `${ready.host}:${ready.port}`;
    this.channels.channel(-1).appendLine(`Node ${ready.node} waits for a Java debugger at ${where}.`);
    if (!vscode.extensions.getExtension(JAVA_DEBUGGER)) {
      void vscode.window.showWarningMessage(`Node ${ready.node} waits for a Java debugger at ${where} (for 5 minutes). ` +
        `To debug it here, install the Debugger for Java extension (${JAVA_DEBUGGER}); or attach any JDWP debugger, ` +
        `e.g. jdb -attach ${where}.`, INSTALL_JAVA_DEBUGGER).then((pick) => {
        if (pick === INSTALL_JAVA_DEBUGGER) void vscode.commands.executeCommand('workbench.extensions.search', `@id:${JAVA_DEBUGGER}`);
      });
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    void Promise.resolve(vscode.debug.startDebugging(folder, attachConfiguration(ready))).then((started) => {
      if (!started) void vscode.window.showErrorMessage(`Could not attach the Java debugger to node ${ready.node} at ${where}; see the Debug Console.`);
    });
  }

  async runOnCluster(args?: { nodes?: number; mainClass?: string }, debugNodes?: string): Promise<boolean> {
    const nodes = args?.nodes ?? (await this.askNodes());
    if (!nodes) return false;
    const mainClass = args?.mainClass || (await this.askMainClass());
    if (!mainClass) return false;
    if (!this.client) {
      void vscode.window.showErrorMessage(this.inUse ? 'The Cumulus language server is not running (see the Cumulus output).'
        : NOT_CUMULUS_MESSAGE);
      return false;
    }
    this.channels.clear();
    this.profile.reset();
    this.located.clear();
    this.profile.running = true;
    this.runModel.start(mainClass, nodes);
    void this.client.sendNotification(P.PROFILE_RESET, {});
    this.channels.channel(-1).appendLine(`Starting ${mainClass} on ${nodes} nodes${debugNodes ? `, node ${debugNodes} under the debugger` : ''}. ${LAG_NOTE}`);
    try {
      const args: P.RunArgs = debugNodes ? [nodes, mainClass, debugNodes] : [nodes, mainClass];
      await this.client.sendRequest('workspace/executeCommand', { command: P.Commands.run, arguments: args });
      void vscode.commands.executeCommand('cumulus.runView.focus');
      return true;
    } catch (e) {
      // refused before anything started (compile errors, a run still going, no cumulus command): the server's words
      const msg = e instanceof Error ? e.message : String(e);
      this.onRunStatus({ state: 'failed', message: msg });
      void vscode.commands.executeCommand('cumulus.runView.focus');
      return false;
    }
  }

  async stopRun(): Promise<void> {
    if (!this.client) return;
    this.runModel.stopping();
    try {
      await this.client.sendRequest('workspace/executeCommand', { command: P.Commands.stop, arguments: [] });
    } catch (e) {
      void vscode.window.showErrorMessage(`Cumulus: ${e instanceof Error ? e.message : e}`);
    }
  }

  /**
   * The "Attached clusters" view: `cumulus cluster list --json` and `cumulus ps NAME --json` every few seconds while
   * it is visible, run with the Cumulus checkout's `cumulus` (else the one on PATH).
   */
  private clustersView(): vscode.Disposable[] {
    const run: CumulusRunner = this.deps.runCumulus ?? ((args) => new Promise((resolve, reject) => {
      const root = this.root ?? findCumulusRoot(this.config().get<string>('serverPath') || undefined,
        (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), process.env);
      cp.execFile(root ? path.join(root, 'cumulus') : 'cumulus', args, { encoding: 'utf8', timeout: 30_000 },
        (error, stdout, stderr) => error ? reject(new Error((stderr || error.message).trim().split('\n').pop()))
          : resolve(stdout));
    }));
    const poller = new ClustersPoller(() => refreshClusters(run, this.clustersModel), CLUSTERS_REFRESH_MS);
    const view = vscode.window.createTreeView('cumulus.clustersView',
      { treeDataProvider: new ClustersTreeProvider(this.clustersModel) });
    const visibility = view.onDidChangeVisibility((e) => e.visible ? poller.start() : poller.stop());
    if (view.visible) poller.start();
    const refresh = vscode.commands.registerCommand('cumulus.refreshClusters',
      () => poller.started ? undefined : refreshClusters(run, this.clustersModel));
    return [view, visibility, refresh, { dispose: () => poller.stop() }];
  }

  async newProject(): Promise<void> {
    const root = this.root ?? findCumulusRoot(this.config().get<string>('serverPath') || undefined,
      (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), process.env);
    const templates = root ? readTemplates(root) : [];
    if (templates.length === 0) {
      void vscode.window.showErrorMessage("No Cumulus templates found: set 'cumulus.serverPath' to your Cumulus checkout.");
      return;
    }
    const pick = await vscode.window.showQuickPick(
      templates.map((t) => ({ label: t.name, detail: t.description })), { title: 'Cumulus: New Project — template' });
    if (!pick) return;
    const proposed = newProjectDir(pick.label, (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      os.homedir());
    const dir = await vscode.window.showInputBox({ title: 'Cumulus: New Project — directory', value: proposed,
      prompt: 'A new or empty directory' });
    if (!dir) return;
    const t = templates.find((x) => x.name === pick.label)!;
    const pkgVar = t.variables.find((v) => v.name === 'package');
    const pkg = await vscode.window.showInputBox({ title: 'Cumulus: New Project — package', value: pkgVar?.default ?? 'org.example',
      validateInput: (v) => (pkgVar?.pattern && !new RegExp(`^(?:${pkgVar.pattern})$`).test(v) ? pkgVar.message ?? 'invalid' : undefined) });
    if (pkg === undefined) return;
    let output: string;
    try {
      output = this.client
        ? String(await this.client.sendRequest('workspace/executeCommand', { command: P.Commands.newProject, arguments: [t.name, dir, pkg] as P.NewProjectArgs }))
        : cp.execFileSync(path.join(root!, 'cumulus'), ['new', t.name, dir, '--package', pkg], { encoding: 'utf8' });
    } catch (e) {
      void vscode.window.showErrorMessage(`Cumulus: ${e instanceof Error ? e.message : e}`);
      return;
    }
    this.log.appendLine(output);
    const open = await vscode.window.showInformationMessage(`Created ${dir} from '${t.name}'.`, 'Open Folder');
    if (open) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(dir), { forceNewWindow: false });
  }

  async showProfile(): Promise<void> {
    await vscode.commands.executeCommand('cumulus.profileView.focus');
    this.profileView.reveal();
  }
}

async function startLanguageClient(context: vscode.ExtensionContext, start: ServerStart,
                                   log: vscode.OutputChannel): Promise<Client> {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const lc = require('vscode-languageclient/node') as typeof import('vscode-languageclient/node');
  const launch = serverLaunch(start.javaHome, start.server);
  const client = new lc.LanguageClient('cumulus', 'Cumulus Language Server',
    // no `transport`: with TransportKind.stdio the client would append --stdio to the Java program's arguments
    { run: { command: launch.command, args: launch.args }, debug: { command: launch.command, args: launch.args } },
    {
      documentSelector: [{ scheme: 'file', language: 'java' }],
      outputChannel: log,
      initializationOptions: start.options,
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.java') },
    });
  await client.start();
  context.subscriptions.push({ dispose: () => void client.stop() });
  return client as unknown as Client;
}

let instance: CumulusExtension | undefined;

export async function activate(context: vscode.ExtensionContext, deps: Deps = {}): Promise<CumulusExtension> {
  instance = new CumulusExtension(context, deps);
  await instance.startIfCumulus();
  return instance;
}

export async function deactivate(): Promise<void> {
  await instance?.client?.stop().catch(() => undefined);
  instance = undefined;
}
