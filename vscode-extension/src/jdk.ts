// Finds a JDK 25 or newer the way scripts/find-jdk.sh (what ./cumulus and ./build use) does: cumulus.javaHome, then
// $CUMULUS_JAVA_HOME, $JAVA_HOME, the first java on PATH (symlinks resolved), then /usr/lib/jvm/*, /opt/java/*,
// /opt/jdk*, /usr/local/lib/jvm/*, ~/.sdkman/candidates/java/*, ~/.jdks/* and macOS's JavaVirtualMachines; a candidate
// counts when it has bin/java and bin/javac. The script asks `java` for its version; this reads the JDK's `release`
// file instead (no process to start). Pure logic over an injected file system, so it is unit tested.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface JdkFs {
  exists(p: string): boolean;
  readdir(p: string): string[];
  realpath(p: string): string;
  readFile(p: string): string | undefined;
}

export const realFs: JdkFs = {
  exists: (p) => fs.existsSync(p),
  readdir: (p) => { try { return fs.readdirSync(p); } catch { return []; } },
  realpath: (p) => { try { return fs.realpathSync(p); } catch { return p; } },
  readFile: (p) => { try { return fs.readFileSync(p, 'utf8'); } catch { return undefined; } },
};

export const MIN_JAVA = 25;

export const NO_JDK_MESSAGE =
  'Cumulus needs a JDK 25 or newer to run its language server, and none was found (looked at $CUMULUS_JAVA_HOME, ' +
  '$JAVA_HOME, java on PATH, /usr/lib/jvm, /opt/java, ~/.sdkman, ~/.jdks). Install one (e.g. ' +
  "'apt-get install temurin-25-jdk' from Adoptium's repository, or 'sdk install java 25-tem') and set " +
  "'cumulus.javaHome' to it (or CUMULUS_JAVA_HOME / JAVA_HOME).";

/** The feature version of the JDK at home, from its `release` file; undefined when it is no JDK. */
export function javaMajor(home: string, f: JdkFs = realFs): number | undefined {
  const exe = process.platform === 'win32' ? '.exe' : '';
  if (!f.exists(path.join(home, 'bin', `java${exe}`)) || !f.exists(path.join(home, 'bin', `javac${exe}`))) {
    return undefined;
  }
  const release = f.readFile(path.join(home, 'release'));
  const m = release && /JAVA_VERSION="(\d+)(?:\.(\d+))?/.exec(release);
  if (!m) {
    return undefined;
  }
  const major = Number(m[1]);
  return major === 1 && m[2] ? Number(m[2]) : major;
}

export function candidates(setting: string | undefined, env: NodeJS.ProcessEnv, f: JdkFs = realFs): string[] {
  const list: string[] = [];
  if (setting) list.push(setting);
  if (env.CUMULUS_JAVA_HOME) list.push(env.CUMULUS_JAVA_HOME);
  if (env.JAVA_HOME) list.push(env.JAVA_HOME);
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && f.exists(path.join(dir, 'java'))) {
      const real = f.realpath(path.join(dir, 'java'));
      list.push(path.dirname(path.dirname(real)));
      break;
    }
  }
  const home = env.HOME ?? os.homedir();
  const under = (parent: string, filter: (n: string) => boolean = () => true) =>
    f.readdir(parent).filter(filter).sort().map((n) => path.join(parent, n));
  // the script's glob order: /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* ~/.sdkman ~/.jdks macOS
  list.push(...under('/usr/lib/jvm'), ...under('/opt/java'), ...under('/opt', (n) => n.startsWith('jdk')),
    ...under('/usr/local/lib/jvm'), ...under(path.join(home, '.sdkman/candidates/java')), ...under(path.join(home, '.jdks')),
    ...under('/Library/Java/JavaVirtualMachines').map((d) => path.join(d, 'Contents', 'Home')));
  return list;
}

export type JdkResult = { home: string; major: number } | { error: string };

/** The JDK to use. An explicit cumulus.javaHome that is not a JDK 25+ is an error of its own (no silent fallback). */
export function findJdk(setting: string | undefined, env: NodeJS.ProcessEnv = process.env, f: JdkFs = realFs): JdkResult {
  if (setting) {
    const major = javaMajor(setting, f);
    if (major === undefined) {
      return { error: `cumulus.javaHome is '${setting}', which is not a JDK (no bin/java, bin/javac and release file). ${NO_JDK_MESSAGE}` };
    }
    if (major < MIN_JAVA) {
      return { error: `cumulus.javaHome '${setting}' is Java ${major}; Cumulus needs Java ${MIN_JAVA} or newer. ${NO_JDK_MESSAGE}` };
    }
    return { home: setting, major };
  }
  for (const c of candidates(undefined, env, f)) {
    const major = javaMajor(c, f);
    if (major !== undefined && major >= MIN_JAVA) {
      return { home: c, major };
    }
  }
  return { error: NO_JDK_MESSAGE };
}
