package dev.cumulus.lsp;

import dev.cumulus.profiler.channel.ProfileRecord;
import java.util.List;
import org.eclipse.lsp4j.jsonrpc.services.JsonNotification;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The Cumulus additions to LSP, in one place (documented in {@code lsp-server/PROTOCOL.md}; the VS Code extension's
 * {@code protocol.ts} mirrors this interface). Custom methods are {@code cumulus/...}, never {@code $/...}; commands
 * run over the standard {@code workspace/executeCommand}.
 *
 * <p>This interface is the server side (requests the client sends); {@link Client} is the client side
 * (notifications the server sends).
 */
public interface CumulusProtocol {
    /** Notification, client to server: forget all figures (a new run starts). */
    String PROFILE_RESET = "cumulus/profileReset";
    /** Notification, server to client: one output line of a run ({@link NodeOutput}). */
    String NODE_OUTPUT = "cumulus/nodeOutput";
    /** Notification, server to client: a run's state changed ({@link RunStatus}). */
    String RUN_STATUS = "cumulus/runStatus";
    /**
     * Notification, server to client: one record of the run's profile channel ({@link ProfileRecord}: a node's live
     * window, or the run's report at its end), exactly as the profiler wrote it (docs/design/PROFILER.md).
     */
    String PROFILE = "cumulus/profile";
    /**
     * Notification, server to client: a node started with {@code --debug} listens for a debugger
     * ({@link DebugReady}); it stays suspended until one attaches.
     */
    String DEBUG_READY = "cumulus/debugReady";

    /**
     * Command: {@code [nodes: number, mainClass: string, debugNodes?: string]}; starts {@code cumulus run --nodes N
     * --profile-stream}, with {@code --debug debugNodes} (e.g. {@code "1"} or {@code "0,2"}) when given.
     */
    String RUN = "cumulus.run";
    /** Command: no arguments; stops the current run. */
    String STOP = "cumulus.stop";
    /** Command: {@code [template: string, dir: string, package?: string]}; runs {@code cumulus new}. */
    String NEW_PROJECT = "cumulus.newProject";
    /** Command: {@code [object: string]}; returns the object's newest figures (what a profile lens shows). */
    String SHOW_PROFILE = "cumulus.showProfile";
    /** Every command the server registers in {@code executeCommandProvider}. */
    List<String> COMMANDS = List.of(RUN, STOP, NEW_PROJECT, SHOW_PROFILE);

    /** One output line of a run; {@code node} is -1 for the launcher itself; {@code stream} is stdout or stderr. */
    record NodeOutput(int node, String line, String stream) {
    }

    /**
     * A run's state: {@code starting}, {@code running}, {@code finished} or {@code failed}; {@code exitCode} and
     * {@code runDir} are set at the end (runDir holds the JFR files), {@code message} says what happened.
     */
    record RunStatus(String state, Integer exitCode, String runDir, String message) {
    }

    /** A node waiting for a debugger: attach a Java debugger (JDWP) to {@code host:port}. */
    record DebugReady(int node, String host, int port) {
    }

    /**
     * The names of {@code initialize}'s initialization options (all optional; {@code InitializationOptions} in
     * {@code protocol.ts}), and of the settings {@code workspace/didChangeConfiguration} carries, as
     * {@code {"cumulus": {"javaErrors": bool, "singleVm": bool}}}.
     */
    final class Options {
        /** The Cumulus API jars: a path-separated string or an array. */
        public static final String CUMULUS_CLASSPATH = "cumulusClasspath";
        /** Path of the {@code cumulus} command; {@code "none"} disables it. */
        public static final String CUMULUS_COMMAND = "cumulusCommand";
        /** URL prefix of the rule pages. */
        public static final String RULES_DOCS_BASE = "rulesDocsBase";
        /** Milliseconds after the last edit before analysing (default 200). */
        public static final String DEBOUNCE_MS = "debounceMs";
        /** Whether Java compile errors are published (default true); also the didChangeConfiguration setting. */
        public static final String JAVA_ERRORS = "javaErrors";
        /**
         * Whether the workspace is a single-VM program (run with {@code cumulus run --single-vm}): also check the
         * single-VM rules CUM201-CUM207 (default false); also the didChangeConfiguration setting.
         */
        public static final String SINGLE_VM = "singleVm";
        /** Folder for the cached Maven classpath (default {@code ~/.cache/cumulus/lsp}). */
        public static final String CLASSPATH_CACHE_DIR = "classpathCacheDir";
        /** The section of {@code workspace/didChangeConfiguration}'s settings the server reads. */
        public static final String SETTINGS_SECTION = "cumulus";

        private Options() {
        }
    }

    @JsonNotification(PROFILE_RESET)
    void profileReset(Object ignored);

    /** The client side: LSP plus the Cumulus notifications. */
    interface Client extends LanguageClient {
        @JsonNotification(NODE_OUTPUT)
        void nodeOutput(NodeOutput output);

        @JsonNotification(RUN_STATUS)
        void runStatus(RunStatus status);

        @JsonNotification(PROFILE)
        void profile(ProfileRecord record);

        @JsonNotification(DEBUG_READY)
        void debugReady(DebugReady ready);
    }
}
