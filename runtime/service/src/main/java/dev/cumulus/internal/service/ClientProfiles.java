package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.internal.jfr.RemoteCallServedEvent;
import dev.cumulus.internal.launch.LaunchConfig;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A standing cluster's server's share of its profiled clients' profiles ({@code cumulus run --attach NAME --profile}).
 * The server is shared: it records its remote-call and migration events in this JVM only while at least one client
 * asked for its profile ({@link #start}), and hands each client, as a JFR file, only the events of its own window that
 * are its own ({@link #chunk}): calls it made (the caller is its transport id, which no other client holds while it is
 * attached; its window begins at a {@link ClientProfileWindowEvent}, so a former holder's calls stay out) and calls
 * to, and moves of, the objects it made here or that moved here; and the calls this server made for it: those a
 * thread made while it served one of the calls above (a nested call — the client's object calling on, to whichever
 * object and server — from the time the served call began to its end, on the same thread). Another client's calls
 * are never in it, nor its objects, but for those this client called itself (by a grant). Any thread; one lock.
 */
final class ClientProfiles {
    /** The name of runtime/migration's JFR event of a move ({@code MigrationEvent}): a client's share has its moves. */
    static final String MIGRATION_EVENT = "dev.cumulus.Migration";

    /**
     * The most bytes of one client's profile from one server (its own events only), so that profiled clients cannot
     * take a shared server's memory.
     */
    static final long MAX_PROFILE_BYTES = 32L << 20;
    /** The most disk the shared recording keeps (its oldest events go first): a long-attached client cannot fill it. */
    static final long MAX_RECORDING_BYTES = 512L << 20;

    private Recording recording;
    /** The profiled clients whose windows are open. */
    private final Set<Integer> open = new HashSet<>();
    /** Each client's profile once written, while it fetches it. */
    private final Map<Integer, byte[]> written = new HashMap<>();

    /** Starts {@code client}'s window (a recording of this JVM's events, shared by every profiled client). */
    synchronized void start(int client) {
        if (recording == null) {
            keepRepositoryInRunDirectory();
            Recording r = new Recording();
            r.setName("cumulus-client-profiles");
            r.setToDisk(true);
            r.setMaxSize(MAX_RECORDING_BYTES);
            r.enable(RemoteCallServedEvent.class).withoutThreshold();
            r.enable(RemoteCallEvent.class).withoutThreshold();
            r.enable(ClientProfiles.MIGRATION_EVENT).withoutThreshold();
            r.enable(ClientProfileWindowEvent.class);
            r.start();
            recording = r;
        }
        open.add(client);
        written.remove(client);
        ClientProfileWindowEvent window = new ClientProfileWindowEvent();
        window.client = client;
        window.commit(); // where the window begins, on the recording's clock (the wall clock may step or slew)
    }

    /**
     * Puts JFR's repository (where a recording to disk keeps its chunks: the temporary directory by default) into this
     * server's run directory, which its host's agent or keeper deletes when the cluster stops, so a server killed
     * outright leaves none of it behind. A server started otherwise (tests, in-process) keeps JFR's default.
     */
    private static void keepRepositoryInRunDirectory() {
        Path runDir;
        try {
            runDir = LaunchConfig.fromProperties(System.getProperties()).runDir();
        } catch (RuntimeException e) {
            return; // not launched by cumulus: no run directory
        }
        if (runDir == null) {
            return;
        }
        try {
            Path repository = Files.createDirectories(runDir.resolve("jfr-repository"));
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "jfrConfigure", new Object[] {new String[] {"repositorypath=" + repository}},
                new String[] {String[].class.getName()});
        } catch (IOException | JMException e) {
            System.err.println("cumulus: this server keeps its client profiles' recording in JFR's default repository "
                + "(the temporary directory): " + e.getMessage());
        }
    }

    /**
     * Up to {@link ClientGate#PROFILE_CHUNK_BYTES} of {@code client}'s profile from {@code offset}: a JFR file of its
     * window's events that are its own ({@code owned}: the names of the objects it made here, asked for at the first
     * chunk). A shorter chunk is the last.
     *
     * @throws CumulusException when the client started no window here, or the recording cannot be written
     */
    synchronized byte[] chunk(int client, int offset, Supplier<Set<String>> owned) {
        byte[] all = written.get(client);
        if (all == null) {
            if (!open.contains(client) || recording == null) {
                throw new CumulusException("this server keeps no profile of client " + client + ": it asked "
                    + "for none (cumulus run --attach NAME --profile asks at its start)");
            }
            all = write(client, owned.get());
            written.put(client, all);
        }
        if (offset < 0 || offset > all.length) {
            throw new CumulusException("client " + client + "'s profile here has " + all.length
                + " bytes; offset " + offset + " is outside it");
        }
        return Arrays.copyOfRange(all, offset, Math.min(all.length, offset + ClientGate.PROFILE_CHUNK_BYTES));
    }

    /** Ends {@code client}'s window (it fetched its profile, left or died); the recording stops with the last. */
    synchronized void end(int client) {
        open.remove(client);
        written.remove(client);
        if (open.isEmpty() && recording != null) {
            recording.close();
            recording = null;
        }
    }

    private byte[] write(int client, Set<String> owned) {
        Path dump = null;
        Path own = null;
        try {
            dump = Files.createTempFile("cumulus-server-", ".jfr");
            own = Files.createTempFile("cumulus-client-" + client + "-", ".jfr");
            recording.dump(dump);
            Instant from = windowStart(dump, client);
            Map<Long, Spans> serving = serving(dump, client, owned);
            try (RecordingFile file = new RecordingFile(dump)) {
                file.write(own, e -> !e.getStartTime().isBefore(from)
                    && (belongs(e, client, owned) || madeWhileServing(e, serving)));
            }
            long size = Files.size(own);
            if (size > MAX_PROFILE_BYTES) {
                throw new CumulusException("client " + client + "'s profile here is " + size
                    + " bytes, more than the " + MAX_PROFILE_BYTES + " a client may fetch from one server; "
                    + "profile a shorter run");
            }
            return Files.readAllBytes(own);
        } catch (IOException e) {
            throw new CumulusException("this server cannot write client " + client + "'s profile: "
                + e.getMessage(), e);
        } finally {
            delete(dump);
            delete(own);
        }
    }

    /** When {@code client}'s newest window began, by its {@link ClientProfileWindowEvent} in {@code dump}. */
    private static Instant windowStart(Path dump, int client) throws IOException {
        Instant from = null;
        try (RecordingFile file = new RecordingFile(dump)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (e.getEventType().getName().equals(ClientProfileWindowEvent.NAME) && e.getInt("client") == client
                    && (from == null || e.getStartTime().isAfter(from))) {
                    from = e.getStartTime();
                }
            }
        }
        if (from == null) {
            throw new CumulusException("this server's recording lost the start of client " + client + "'s window");
        }
        return from;
    }

    /** When each thread (by JFR's id of it) served {@code client}'s calls here: the served calls that belong to it. */
    private static Map<Long, Spans> serving(Path dump, int client, Set<String> owned) throws IOException {
        Map<Long, List<long[]>> byThread = new HashMap<>();
        try (RecordingFile file = new RecordingFile(dump)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (e.getEventType().getName().equals(RemoteCallServedEvent.NAME) && e.getThread() != null
                    && belongs(e, client, owned)) {
                    byThread.computeIfAbsent(e.getThread().getId(), t -> new ArrayList<>())
                        .add(new long[] {nanos(e.getStartTime()), nanos(e.getEndTime())});
                }
            }
        }
        Map<Long, Spans> spans = new HashMap<>();
        byThread.forEach((thread, list) -> spans.put(thread, Spans.of(list)));
        return spans;
    }

    /** Whether {@code e} is a call this server made on a thread while it served one of the client's calls. */
    private static boolean madeWhileServing(RecordedEvent e, Map<Long, Spans> serving) {
        if (!e.getEventType().getName().equals(RemoteCallEvent.NAME) || e.getThread() == null) {
            return false;
        }
        Spans s = serving.get(e.getThread().getId());
        return s != null && s.cover(nanos(e.getStartTime()));
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** A thread's served calls as disjoint time spans, in order (a call served inside another is inside its span). */
    private record Spans(long[] starts, long[] ends) {
        static Spans of(List<long[]> spans) {
            spans.sort(Comparator.comparingLong(s -> s[0]));
            List<long[]> merged = new ArrayList<>();
            for (long[] s : spans) {
                long[] last = merged.isEmpty() ? null : merged.getLast();
                if (last != null && s[0] <= last[1]) {
                    last[1] = Math.max(last[1], s[1]);
                } else {
                    merged.add(s.clone());
                }
            }
            return new Spans(merged.stream().mapToLong(s -> s[0]).toArray(), merged.stream().mapToLong(s -> s[1])
                .toArray());
        }

        /** Whether {@code t} falls within a span. */
        boolean cover(long t) {
            int i = Arrays.binarySearch(starts, t);
            int at = i >= 0 ? i : -i - 2; // the last span that starts at or before t
            return at >= 0 && t <= ends[at];
        }
    }

    /**
     * Whether {@code e} is {@code client}'s: a call it made, or a call to or move of an object of its here
     * ({@code owned}: their names).
     */
    static boolean belongs(RecordedEvent e, int client, Set<String> owned) {
        return switch (e.getEventType().getName()) {
            case RemoteCallServedEvent.NAME -> e.getInt("callerNode") == client
                || owned.contains(e.getString("object"));
            case RemoteCallEvent.NAME, MIGRATION_EVENT -> owned.contains(e.getString("object"));
            default -> false;
        };
    }

    private static void delete(Path p) {
        if (p != null) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a temp file left: the OS cleans its temp folder
            }
        }
    }
}
