package dev.cumulus.profiler.live;

import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.figures.WindowMerger;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What a run's live profile prints, from each node's windows as a {@link LiveSink} hands them on: the cluster's
 * figures merged over the nodes' newest windows ({@link WindowMerger}), and from them, when asked for, the profile
 * stream for the editor (every window's line, then the figures, each as {@value #STREAM_PREFIX}{@code {json}} on
 * {@code out}) and the terminal view ({@link LiveView}, at most one line a second on {@code err}).
 *
 * <p>Threads: the sink's thread calls it. Never throws for a line it cannot print (the sink ignores a listener's
 * failure).
 */
public final class LiveOutput implements BiConsumer<String, LiveWindow> {
    /** Prefix of a profile stream line ({@code cumulus run --profile-stream}). */
    public static final String STREAM_PREFIX = "@cumulus-profile ";

    private final WindowMerger merger = new WindowMerger();
    private final boolean stream;
    private final LiveView view;
    private final Consumer<String> out;
    private final Consumer<String> err;

    /**
     * @param stream print the profile stream on {@code out}
     * @param view   the terminal view, printed on {@code err} as {@code cumulus: LINE}; null: none
     */
    public LiveOutput(boolean stream, LiveView view, Consumer<String> out, Consumer<String> err) {
        this.stream = stream;
        this.view = view;
        this.out = out;
        this.err = err;
    }

    @Override
    public void accept(String line, LiveWindow window) {
        LiveFigures figures = merger.accept(window);
        if (stream) {
            out.accept(STREAM_PREFIX + line);
            out.accept(STREAM_PREFIX + ProfileGson.write(figures));
        }
        if (view != null) {
            String text = view.accept(figures, System.currentTimeMillis());
            if (text != null) {
                err.accept("cumulus: " + text);
            }
        }
    }
}
