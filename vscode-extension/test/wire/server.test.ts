// The real wire: the built language server jar over stdio, driven with vscode-languageserver-protocol.
// Skipped (with a message) when lsp-server/target/cumulus-lsp.jar is not built yet or there is no JDK 25.
import { strict as assert } from 'node:assert';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, InitializeRequest,
  InitializedNotification, DidOpenTextDocumentNotification, PublishDiagnosticsNotification, PublishDiagnosticsParams,
  ShutdownRequest, ExitNotification, CompletionRequest, DefinitionRequest } from 'vscode-languageserver-protocol/node';
import { findJdk } from '../../src/jdk';
import { checkoutServer, serverJar, serverLaunch } from '../../src/server';

const repo = path.resolve(__dirname, '..', '..', '..', '..');
// CUMULUS_SERVER_ROOT: test another checkout's built server (its lsp-server/target/cumulus-lsp.jar)
const serverRoot = process.env.CUMULUS_SERVER_ROOT || repo;
const jar = serverJar(serverRoot);
const jdk = findJdk(process.env.CUMULUS_JAVA_HOME);
// zip entry names are stored uncompressed: a jar without the main class is a stub, not a built server
const built = fs.existsSync(jar) && fs.readFileSync(jar).includes('dev/cumulus/lsp/CumulusLanguageServer.class');
const skip = !built ? `SKIP: ${jar} is not built yet (or lacks dev.cumulus.lsp.CumulusLanguageServer; run ./build)`
  : 'error' in jdk ? `SKIP: no JDK 25 (${jdk.error})` : false;
if (skip) console.log(skip);

describe('language server over stdio', () => {
  it('publishes a CUM diagnostic and a Java compile error; completion and definition answer empty, not an error',
    { skip, timeout: 90_000 }, async () => {
    const launch = serverLaunch((jdk as { home: string }).home, checkoutServer(serverRoot));
    const child = cp.spawn(launch.command, launch.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const conn = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const corpus = path.join(repo, 'runtime', 'analysis', 'src', 'test', 'corpus');
    const file = path.join(corpus, 'CUM101', 'BothKinds.java');
    const uri = pathToFileURL(file).toString();
    // an editor buffer that does not compile (never written to disk)
    const brokenUri = pathToFileURL(path.join(corpus, 'WireBroken.java')).toString();
    let javaError: (p: PublishDiagnosticsParams) => void = () => undefined;
    const javaErrors = new Promise<PublishDiagnosticsParams>((resolve) => { javaError = resolve; });
    const diagnostics = new Promise<PublishDiagnosticsParams>((resolve) => {
      conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
        if (p.uri === uri && p.diagnostics.some((d) => String(d.code ?? d.message).includes('CUM'))) resolve(p);
        if (p.uri === brokenUri && p.diagnostics.some((d) => /undefinedHelper/.test(String(d.message)))) javaError(p);
      });
    });
    const exited = new Promise<never>((_, reject) => child.on('exit', (code) => reject(new Error(
      `the server exited with code ${code}; stderr:\n${stderr.slice(-3000)}`))));
    exited.catch(() => undefined);
    conn.listen();
    let timer: NodeJS.Timeout | undefined;
    try {
      const init = await Promise.race([exited, conn.sendRequest(InitializeRequest.type, {
        processId: process.pid, rootUri: pathToFileURL(corpus).toString(), capabilities: {},
        workspaceFolders: [{ uri: pathToFileURL(corpus).toString(), name: 'corpus' }],
        initializationOptions: { cumulusCommand: path.join(repo, 'cumulus') },
      })]);
      assert.ok(init.capabilities, 'the server answers initialize');
      await conn.sendNotification(InitializedNotification.type, {});
      await conn.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'java', version: 1, text: fs.readFileSync(file, 'utf8') } });
      const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(
        `no CUM101 for ${file} or no compile error for WireBroken.java within 60 s; server stderr:\n${stderr.slice(-3000)}`)), 60_000); });
      timeout.catch(() => undefined);
      const p = await Promise.race([diagnostics, timeout, exited]);
      const d = p.diagnostics.find((x) => String(x.code ?? x.message).includes('CUM'))!;
      assert.match(String(d.code ?? d.message), /CUM101/);

      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: brokenUri, languageId: 'java',
        version: 1, text: 'public class WireBroken { int f() { return undefinedHelper(1); } }' } });
      const broken = await Promise.race([javaErrors, timeout, exited]);
      const e = broken.diagnostics.find((x) => /undefinedHelper/.test(String(x.message)))!;
      assert.equal(e.source, 'cumulus');
      assert.match(String(e.message), /The method undefinedHelper\(int\) is undefined for the type WireBroken/);
      assert.equal(init.capabilities.completionProvider, undefined, 'completion is not advertised');
      const at = { textDocument: { uri: brokenUri }, position: { line: 0, character: 45 } };
      assert.equal(await conn.sendRequest(CompletionRequest.type, at), null);
      assert.equal(await conn.sendRequest(DefinitionRequest.type, at), null);
      await conn.sendRequest(ShutdownRequest.type);
      await conn.sendNotification(ExitNotification.type);
    } finally {
      clearTimeout(timer);
      conn.dispose();
      child.kill();
    }
  });
});
