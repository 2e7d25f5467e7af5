package dev.cumulus.lsp;

import dev.cumulus.lsp.model.HeapFieldSites;
import dev.cumulus.lsp.model.LensSites;
import dev.cumulus.lsp.model.MainSites;
import dev.cumulus.lsp.model.MethodMark;
import dev.cumulus.lsp.model.ProfileFigures;
import dev.cumulus.lsp.model.Snapshot;
import dev.cumulus.lsp.model.SourceIndex;
import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.figures.FigureText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Command;

/**
 * {@code textDocument/codeLens}: "▶ Run on cluster" and "Debug node…" over a {@code main} that joins a cluster
 * ({@link MainSites}; the extension's own commands), and live figures of the current run on cloud classes and on calls
 * that create named distributed objects ({@link LensSites}); "no run yet" before the first figures arrive. After a
 * single-VM run, each field of the program's classes that moved between the nodes gets its remote fetches and
 * write-backs on its declaration ({@link HeapFieldSites}; the "false sharing" view). Lenses are refreshed with
 * {@code workspace/codeLens/refresh} when figures change.
 */
final class CodeLensHandler {
    static final String NO_RUN = "no run yet";
    static final String RUN_TITLE = "▶ Run on cluster";
    static final String DEBUG_TITLE = "Debug node…";
    /** Client-side commands of the VS Code extension (not served here): run, or run with nodes under a debugger. */
    static final String RUN_ON_CLUSTER = "cumulus.runOnCluster";
    static final String DEBUG_ON_CLUSTER = "cumulus.debugOnCluster";
    /** Client-side command of the VS Code extension: opens the profile view. */
    static final String SHOW_COMMUNICATION_PROFILE = "cumulus.showCommunicationProfile";

    List<CodeLens> lenses(Snapshot s, CodeLensParams params, ProfileFigures figures) {
        List<CodeLens> out = new ArrayList<>();
        try {
            String uri = params.getTextDocument().getUri();
            SourceIndex idx = s.index(uri);
            if (idx == null) {
                return out;
            }
            Set<String> cloud = new HashSet<>();
            for (MethodMark m : s.marks(uri)) {
                cloud.add(m.className());
            }
            for (MainSites.Site main : MainSites.find(idx)) {
                Map<String, Object> args = Map.of("mainClass", main.mainClass());
                out.add(new CodeLens(Lsp.range(main.range()),
                        new Command(RUN_TITLE, RUN_ON_CLUSTER, List.of(args)), null));
                out.add(new CodeLens(Lsp.range(main.range()),
                        new Command(DEBUG_TITLE, DEBUG_ON_CLUSTER, List.of(args)), null));
            }
            for (LensSites.Site site : LensSites.find(idx, cloud)) {
                String title;
                String object;
                if (site.object() != null) {
                    ObjectFigures f = figures.get(site.object());
                    object = site.object();
                    title = f != null ? figures.describe(f) : site.object() + ": " + NO_RUN;
                } else {
                    String dotted = site.cloudClass().replace('/', '.');
                    List<ObjectFigures> fs = figures.ofClass(dotted);
                    object = fs.isEmpty() ? null : fs.getFirst().name();
                    title = fs.isEmpty() ? (figures.hasAny() ? "cloud: no figures for this class in this run"
                            : "cloud: " + NO_RUN)
                            : String.join(" | ", fs.stream().map(figures::describe).toList());
                }
                Command c = new Command(title, CumulusProtocol.SHOW_PROFILE,
                        object == null ? List.of() : List.of(object));
                out.add(new CodeLens(Lsp.range(site.range()), c, null));
            }
            for (HeapFieldSites.Site site : HeapFieldSites.find(idx, s.classes(), figures.heapFields())) {
                String title = site.figures().size() == 1 ? FigureText.describe(site.figures().getFirst())
                        : String.join(" | ", site.figures().stream().map(f -> simpleName(f.className()) + ": "
                        + FigureText.describe(f)).toList());
                out.add(new CodeLens(Lsp.range(site.range()), new Command(title, SHOW_COMMUNICATION_PROFILE,
                        List.of()), null));
            }
        } catch (RuntimeException e) {
            CumulusLanguageServer.LOG.log(Level.WARNING, "code lenses", e);
            return List.of();
        }
        return out;
    }

    /** {@code svit.Outer$Worker} as {@code Outer$Worker}. */
    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
