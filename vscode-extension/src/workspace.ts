// Whether a workspace uses Cumulus, so that the language server (a JVM, and a Maven run on first open) starts only
// there: a build file that mentions the dev.cumulus group (Maven or Gradle, in a workspace folder or one level below
// it), or a `.cumulus` marker (file or folder) in a workspace folder. Pure logic over an injected file system.
import * as fs from 'fs';
import * as path from 'path';

export const MARKER = '.cumulus';
export const BUILD_FILES = ['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'];
/** What the manifest's activation events and the watcher look for (keep in step with package.json). */
export const WATCH_GLOB = `**/{${[...BUILD_FILES, MARKER].join(',')}}`;
const CUMULUS_GROUP = /\bdev\.cumulus\b/;
const SKIPPED = new Set(['node_modules', 'target', 'build', 'out', 'bin']);

export interface WorkspaceFs {
  exists(p: string): boolean;
  readFile(p: string): string | undefined;
  /** Sub-folder names of a folder. */
  folders(p: string): string[];
}

export const realWorkspaceFs: WorkspaceFs = {
  exists: (p) => fs.existsSync(p),
  readFile: (p) => { try { return fs.readFileSync(p, 'utf8'); } catch { return undefined; } },
  folders: (p) => { try { return fs.readdirSync(p, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name); } catch { return []; } },
};

/** Why the workspace uses Cumulus ("pom.xml depends on dev.cumulus", "a .cumulus marker"), or undefined if it does not. */
export function cumulusEvidence(folders: string[], f: WorkspaceFs = realWorkspaceFs): string | undefined {
  for (const folder of folders) {
    if (f.exists(path.join(folder, MARKER))) return `${path.join(folder, MARKER)} marks it`;
    const dirs = [folder, ...f.folders(folder).filter((n) => !n.startsWith('.') && !SKIPPED.has(n)).sort()
      .map((n) => path.join(folder, n))];
    for (const dir of dirs) {
      for (const name of BUILD_FILES) {
        const file = path.join(dir, name);
        const text = f.readFile(file);
        if (text !== undefined && CUMULUS_GROUP.test(text)) return `${file} mentions dev.cumulus`;
      }
    }
  }
  return undefined;
}

export const NOT_CUMULUS_MESSAGE = 'This workspace does not use Cumulus (no pom.xml or Gradle build file mentions ' +
  `dev.cumulus, and there is no ${MARKER} marker), so the Cumulus language server was not started. Add the ` +
  `cumulus-runtime dependency, or create an empty ${MARKER} file in the workspace folder, and it starts.`;
