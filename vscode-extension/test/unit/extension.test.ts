import './register-mock';
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import * as vscode from './vscode-mock';
import { activate, Client, NODES_KEY } from '../../src/extension';
import { findJdk, JdkFs, NO_JDK_MESSAGE } from '../../src/jdk';
import { findObjectLine, ProfileModel, ReportParser } from '../../src/profile';
import * as P from '../../src/protocol';
import { RunModel, statusText } from '../../src/runView';
import { findCumulusRoot, mainClassOf, serverLaunch, validateNodes } from '../../src/server';

const extRoot = path.join(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(extRoot, 'package.json'), 'utf8'));

class FakeClient implements Client {
  requests: { method: string; params: unknown }[] = [];
  notifications: { method: string; params: unknown }[] = [];
  handlers = new Map<string, (p: any) => void>();
  async sendRequest(method: string, params?: unknown) { this.requests.push({ method, params }); return true; }
  sendNotification(method: string, params?: unknown) { this.notifications.push({ method, params }); }
  onNotification(method: string, h: (p: any) => void) { this.handlers.set(method, h); return { dispose() {} }; }
  async stop() {}
}

function context() {
  const state = new Map<string, unknown>();
  return {
    subscriptions: [] as { dispose(): unknown }[],
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => { state.set(k, v); } },
    state,
  };
}

/** A JDK at /jdk25 and a Cumulus root at /cumulus, so activate starts the (fake) client. */
async function activated() {
  const client = new FakeClient();
  const ctx = context();
  const fakeRoot = fs.mkdtempSync('/tmp/cumulus-ext-test-');
  fs.mkdirSync(path.join(fakeRoot, 'lsp-server', 'target'), { recursive: true });
  fs.writeFileSync(path.join(fakeRoot, 'lsp-server', 'target', 'cumulus-lsp.jar'), '');
  fs.writeFileSync(path.join(fakeRoot, 'cumulus'), '');
  const jdk = fs.mkdtempSync('/tmp/cumulus-jdk-test-');
  fs.mkdirSync(path.join(jdk, 'bin'));
  fs.writeFileSync(path.join(jdk, 'bin', 'java'), '');
  fs.writeFileSync(path.join(jdk, 'release'), 'JAVA_VERSION="25.0.1"\n');
  vscode.config.javaHome = jdk;
  vscode.config.serverPath = fakeRoot;
  const ext = await activate(ctx as any, { startClient: async () => client });
  return { ext, client, ctx, fakeRoot };
}

describe('activate', () => {
  beforeEach(() => vscode.reset());

  it('registers every command contributed in package.json', async () => {
    await activated();
    const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
    assert.ok(contributed.length >= 4);
    for (const id of contributed) {
      assert.ok(vscode.registeredCommands.has(id), `command ${id} is contributed but not registered by activate`);
    }
    // vscode-languageclient registers the server's executeCommand commands under their own ids: no clash allowed
    for (const id of Object.values(P.Commands)) {
      assert.ok(!contributed.includes(id), `contributed command ${id} clashes with the server command of that name`);
    }
    for (const id of vscode.registeredCommands.keys()) {
      assert.ok(contributed.includes(id), `command ${id} is registered but not contributed`);
    }
  });

  it('registers the run view, the profile view and the cumulus debug type named in package.json', async () => {
    await activated();
    const views = manifest.contributes.views.cumulus.map((v: { id: string }) => v.id);
    const registered = vscode.calls.filter((c) => c.method.startsWith('register')).map((c) => c.args[0]);
    for (const v of views) assert.ok(registered.includes(v), `view ${v} is registered`);
    assert.ok(registered.includes('cumulus'));
    assert.equal(manifest.contributes.debuggers[0].type, 'cumulus');
  });

  it('without a JDK 25 shows an error that names what to install', async () => {
    vscode.config.javaHome = '/nonexistent/jdk';
    await activate(context() as any, { startClient: async () => { throw new Error('must not start'); } });
    const err = vscode.messages.find((m) => m.level === 'error');
    assert.ok(err && /JDK 25/.test(err.text) && /temurin-25-jdk/.test(err.text), err?.text);
  });
});

describe('Run on Cluster', () => {
  beforeEach(() => vscode.reset());

  it('asks the node count, remembers it, takes the main class from the editor and sends cumulus.run', async () => {
    const { ext, client, ctx } = await activated();
    vscode.window.activeTextEditor = { document: { languageId: 'java', fileName: '/p/src/Main.java',
      getText: () => 'package org.acme;\npublic final class Main { public static void main(String[] a) {} }' } };
    vscode.inputAnswers.push('3');
    assert.equal(await vscode.commands.executeCommand('cumulus.runOnCluster'), true);
    assert.equal(ctx.state.get(NODES_KEY), 3);
    const run = client.requests.find((r) => r.method === 'workspace/executeCommand');
    assert.deepEqual(run?.params, { command: P.Commands.run, arguments: [3, 'org.acme.Main'] });
    assert.ok(client.notifications.some((n) => n.method === P.PROFILE_RESET));
    assert.equal(ext.runModel.run?.nodes, 3);

    // next time the remembered count is proposed
    vscode.inputAnswers.push(undefined);
    await vscode.commands.executeCommand('cumulus.runOnCluster');
    const box = vscode.calls.filter((c) => c.method === 'showInputBox').at(-1)!.args[0] as { value: string };
    assert.equal(box.value, '3');
  });

  it('asks for the main class when the editor has none', async () => {
    const { client } = await activated();
    vscode.inputAnswers.push('2', 'org.example.Search');
    await vscode.commands.executeCommand('cumulus.runOnCluster');
    assert.deepEqual((client.requests.at(-1)!.params as any).arguments, [2, 'org.example.Search']);
  });

  it('feeds node output, run status and the final report into the views', async () => {
    const { ext, client } = await activated();
    await ext.runOnCluster({ nodes: 2, mainClass: 'a.Main' });
    const out = client.handlers.get(P.NODE_OUTPUT)!;
    const status = client.handlers.get(P.RUN_STATUS)!;
    status({ state: 'running' });
    out({ node: 0, line: 'hello from 0', stream: 'stdout' });
    out({ node: 1, line: 'hello from 1', stream: 'stdout' });
    assert.match(ext.status.text, /running on 2 nodes/);
    for (const l of ['cumulus profile of /r: 2 recordings (node-0.jfr, node-1.jfr)', 'remote calls by object and method:',
      '  object   method calls async failed p50 µs p99 µs request bytes reply bytes nodes (callers -> targets)',
      '  counter  add       20    10      0    3.1   40.0          1280         320 0,1 -> 0', 'lifecycle:']) {
      out({ node: -1, line: l, stream: 'stderr' });
    }
    out({ node: 0, line: '{"object":"best","kind":"cloud","writesPerSec":1200,"migrations":3}', stream: 'stdout' });
    status({ state: 'finished', exitCode: 0, runDir: '/r' });
    assert.deepEqual(ext.runModel.nodeStates, ['exited', 'exited']);
    assert.match(ext.status.text, /finished/);
    assert.equal(ext.profile.get('counter')?.calls, 20);
    assert.equal(ext.profile.get('best')?.writesPerSec, 1200);
    assert.ok(client.requests.some((r) => r.method === P.PROFILE_UPDATE && (r.params as P.ProfileUpdate).object === 'best'),
      'live figures are forwarded to the server');
    assert.deepEqual(vscode.channels.get('Cumulus Node 1')?.lines, ['hello from 1']);
  });
});

describe('logic', () => {
  it('finds a JDK 25 like scripts/find-jdk.sh and prefers cumulus.javaHome', () => {
    const files = new Map<string, string>([
      ['/usr/lib/jvm/java-17/bin/java', ''], ['/usr/lib/jvm/java-17/release', 'JAVA_VERSION="17.0.15"'],
      ['/usr/lib/jvm/temurin-25/bin/java', ''], ['/usr/lib/jvm/temurin-25/release', 'JAVA_VERSION="25"'],
    ]);
    const f: JdkFs = { exists: (p) => files.has(p), readdir: (p) => p === '/usr/lib/jvm' ? ['java-17', 'temurin-25'] : [],
      realpath: (p) => p, readFile: (p) => files.get(p) };
    assert.deepEqual(findJdk(undefined, { PATH: '' }, f), { home: '/usr/lib/jvm/temurin-25', major: 25 });
    assert.match((findJdk('/usr/lib/jvm/java-17', {}, f) as { error: string }).error, /Java 17/);
    assert.deepEqual(findJdk(undefined, {}, { ...f, readdir: () => [] }), { error: NO_JDK_MESSAGE });
  });

  it('launches the server jar with its lib folder', () => {
    const l = serverLaunch('/jdk', '/repo');
    assert.equal(l.command, '/jdk/bin/java');
    assert.ok(l.args.includes('/repo/lsp-server/target/cumulus-lsp.jar:/repo/lsp-server/target/lib/*'));
    assert.equal(l.args.at(-1), 'dev.cumulus.lsp.CumulusLanguageServer');
    assert.equal(findCumulusRoot(undefined, ['/repo/examples'], {}, (p) => p === '/repo/cumulus' || p === '/repo/templates'), '/repo');
  });

  it('reads the main class of a source and validates node counts', () => {
    assert.equal(mainClassOf('package a.b;\npublic class Run { public static void main(String[] x) {} }'), 'a.b.Run');
    assert.equal(mainClassOf('class X {}'), undefined);
    assert.equal(validateNodes('4'), undefined);
    assert.ok(validateNodes('0'));
    assert.ok(validateNodes('many'));
  });

  it('parses the report, finds objects in source and keeps the status text', () => {
    const p = new ReportParser();
    p.accept('[-1] remote calls by object and method:');
    assert.equal(p.accept('  matrix-worker-0 multiply 1 1 0 900.0 900.0 100 200 0 -> 1')?.object, 'matrix-worker-0');
    const m = new ProfileModel();
    m.addReport(p.rows);
    assert.equal(m.get('matrix-worker-0')?.bytes, 300);
    assert.equal(findObjectLine('a\nb = cluster.remoteNew(X.class, Y.class, "matrix-worker-" + w, n);', 'matrix-worker-0'), 1);
    assert.equal(findObjectLine('x\ny\ncluster.replicated("best", M::new)', 'best'), 2);
    const r = new RunModel();
    assert.match(statusText(r), /Cumulus/);
    r.start('a.Main', 2);
    r.status({ state: 'failed', exitCode: 3 });
    assert.match(statusText(r), /failed \(exit 3\)/);
  });
});
