// Where the Cumulus installation is and how to start its language server.
import * as fs from 'fs';
import * as path from 'path';

/** A Cumulus root has the ./cumulus script and, once built, lsp-server/target/cumulus-lsp.jar. */
export function isCumulusRoot(dir: string, exists: (p: string) => boolean = fs.existsSync): boolean {
  return exists(path.join(dir, 'cumulus')) && (exists(path.join(dir, 'lsp-server')) || exists(path.join(dir, 'templates')));
}

/** cumulus.serverPath, else a workspace folder or one of its parents that is a Cumulus root, else $CUMULUS_HOME. */
export function findCumulusRoot(setting: string | undefined, folders: string[], env: NodeJS.ProcessEnv,
                                exists: (p: string) => boolean = fs.existsSync): string | undefined {
  if (setting) {
    return setting;
  }
  for (const f of folders) {
    for (let d = f; ; d = path.dirname(d)) {
      if (isCumulusRoot(d, exists)) {
        return d;
      }
      if (path.dirname(d) === d) break;
    }
  }
  return env.CUMULUS_HOME || undefined;
}

export interface ServerLaunch {
  command: string;
  args: string[];
}

/** The server's jar and its library folder (every jar in it goes on the classpath). */
export interface ServerFiles {
  jar: string;
  lib: string;
  /** Where it came from, for the log: "bundled" or the checkout's path. */
  origin: string;
}

export function serverJar(root: string): string {
  return path.join(root, 'lsp-server', 'target', 'cumulus-lsp.jar');
}

/** The server bundled in the extension (server/cumulus-lsp.jar and server/lib/, put there when the .vsix is packaged). */
export function bundledServer(extensionPath: string): ServerFiles {
  return { jar: path.join(extensionPath, 'server', 'cumulus-lsp.jar'), lib: path.join(extensionPath, 'server', 'lib'),
    origin: 'bundled with the extension' };
}

/** A checkout's built server (lsp-server/target/cumulus-lsp.jar and lib/). */
export function checkoutServer(root: string): ServerFiles {
  return { jar: serverJar(root), lib: path.join(root, 'lsp-server', 'target', 'lib'), origin: root };
}

/**
 * The server to start: a built checkout named by cumulus.serverPath (for work on Cumulus itself), else the bundled one.
 * Undefined when neither exists.
 */
export function findServer(serverPath: string | undefined, extensionPath: string,
                           exists: (p: string) => boolean = fs.existsSync): ServerFiles | undefined {
  if (serverPath && exists(serverJar(serverPath))) return checkoutServer(serverPath);
  const bundled = bundledServer(extensionPath);
  return exists(bundled.jar) ? bundled : undefined;
}

/** java -cp <jar>:<lib>/* dev.cumulus.lsp.CumulusLanguageServer */
export function serverLaunch(javaHome: string, server: ServerFiles): ServerLaunch {
  const java = path.join(javaHome, 'bin', process.platform === 'win32' ? 'java.exe' : 'java');
  return {
    command: java,
    args: ['-XX:+UseSerialGC', '-Xss4m', '--add-exports', 'java.base/jdk.internal.misc=ALL-UNNAMED',
      '-cp', [server.jar, path.join(server.lib, '*')].join(path.delimiter), 'dev.cumulus.lsp.CumulusLanguageServer'],
  };
}

/** The main class of a Java source (package + public class) if it declares `static void main`. */
export function mainClassOf(source: string, fileName?: string): string | undefined {
  if (!/\bstatic\s+void\s+main\s*\(/.test(source)) {
    return undefined;
  }
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(source)?.[1];
  let cls = /\bpublic\s+(?:final\s+|abstract\s+)*(?:class|record|enum|interface)\s+(\w+)/.exec(source)?.[1];
  if (!cls && fileName) {
    cls = path.basename(fileName).replace(/\.java$/, '');
  }
  if (!cls) {
    cls = /\b(?:class|record|enum|interface)\s+(\w+)/.exec(source)?.[1];
  }
  return cls ? (pkg ? `${pkg}.${cls}` : cls) : undefined;
}

/** Validates the node count typed into the input box; returns an error text or undefined. */
export function validateNodes(text: string): string | undefined {
  if (!/^\s*\d+\s*$/.test(text)) {
    return 'a whole number of nodes, e.g. 2';
  }
  const n = Number(text);
  if (n < 1 || n > 64) {
    return 'between 1 and 64 nodes on one host';
  }
  return undefined;
}

export interface TemplateInfo {
  name: string;
  description: string;
  variables: { name: string; default?: string; pattern?: string | null; message?: string | null }[];
}

/** The templates under <root>/templates (each folder with a template.json). */
export function readTemplates(root: string): TemplateInfo[] {
  const dir = path.join(root, 'templates');
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
  const result: TemplateInfo[] = [];
  for (const n of names) {
    try {
      const m = JSON.parse(fs.readFileSync(path.join(dir, n, 'template.json'), 'utf8'));
      result.push({ name: m.name ?? n, description: m.description ?? '', variables: m.variables ?? [] });
    } catch {
      // not a template folder
    }
  }
  return result;
}
