package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.rpc.RpcEngine;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The objects of a standing cluster's clients that this server serves, by id: whose each is (its owner), its name and
 * class, how many calls it served and at what rate, and where what it prints goes (its owner's console, through the
 * owner's {@link ClientIO}). While a call of such an object runs, the calling thread knows the object
 * ({@link #current}): what it prints and the streams it opens ({@code dev.cumulus.RemoteIO}) are its owner's.
 *
 * <p>Threads: call threads enter and leave objects; the system calls that create, move and drop them add and remove
 * entries; status queries measure the call rates ({@link #tick}). The objects by id are a map each call reads without
 * a lock or a boxed key ({@link #enter} runs for every call a client's object serves), replaced whole under this
 * object's lock when an object comes or goes; the consoles' map is concurrent.
 */
public final class ClientObjects {
    /** The object whose call the current thread runs on a standing cluster's server, or {@code null}. */
    private static final ThreadLocal<Entry> CURRENT = new ThreadLocal<>();

    private final RpcEngine engine;
    private final LongSupplier nanoClock;
    /** The objects served here by id: never changed once published, replaced whole by {@link #update}. */
    private volatile Long2ObjectHashMap<Entry> byId = new Long2ObjectHashMap<>();
    private final Map<Integer, ClientIO> consoles = new ConcurrentHashMap<>();
    private long lastTickNs;

    /** A client's object served here. */
    public final class Entry {
        private volatile long objectId;
        final int owner;
        final String name;
        final String className;
        final LongAdder calls = new LongAdder();
        private long callsAtTick;
        private volatile double callsPerSecond;
        private volatile PrintStream out;
        private volatile PrintStream err;
        private volatile ObjectConsole outConsole;
        private volatile ObjectConsole errConsole;
        /** Its owner left: no more calls to the owner (those already waiting are failed by the RPC engine). */
        private volatile boolean gone;

        Entry(long objectId, int owner, String name, String className) {
            this.objectId = objectId;
            this.owner = owner;
            this.name = name == null || name.isEmpty() ? (objectId < 0 ? "(new " + className + ")" : "#" + objectId)
                : name;
            this.className = className;
        }

        /** The client that made the object. */
        public int owner() {
            return owner;
        }

        /** The server that serves it (this one). */
        public int server() {
            return engine.nodeId();
        }

        /**
         * The owner's remote I/O service.
         *
         * @throws CumulusException when the owner has left (its calls would wait for nobody)
         */
        public ClientIO io() {
            if (gone) {
                throw new CumulusException("client " + owner + ", the owner of '" + name + "', has left the cluster");
            }
            return ClientObjects.this.io(owner);
        }

        /** Where this object's standard output ({@code error} false) or error goes while its calls run. */
        PrintStream console(boolean error) {
            PrintStream p = error ? err : out;
            if (p == null) {
                synchronized (this) {
                    p = error ? err : out;
                    if (p == null) {
                        ObjectConsole console = new ObjectConsole(this, error);
                        p = new PrintStream(console, false, StandardCharsets.UTF_8);
                        if (error) {
                            errConsole = console;
                            err = p;
                        } else {
                            outConsole = console;
                            out = p;
                        }
                    }
                }
            }
            return p;
        }

        /** Ends the lines the call left unfinished. */
        void endOfCall() {
            endOfCall(out, outConsole);
            endOfCall(err, errConsole);
        }

        private static void endOfCall(PrintStream stream, ObjectConsole console) {
            if (stream != null) {
                stream.flush(); // what its encoder holds
                console.endLine();
            }
        }

        String label() {
            return name;
        }
    }

    /** @param nanoClock the time the call rates are measured by */
    ClientObjects(RpcEngine engine, LongSupplier nanoClock) {
        this.engine = engine;
        this.nanoClock = nanoClock;
        this.lastTickNs = nanoClock.getAsLong();
    }

    /** The client object whose call the current thread runs, or {@code null} (not on a server, or not for a client). */
    public static Entry current() {
        return CURRENT.get();
    }

    /** Notes that client {@code owner} owns object {@code objectId}, now served here. */
    void add(long objectId, int owner, String name, String className) {
        Entry e = new Entry(objectId, owner, name, className);
        update(m -> m.put(objectId, e));
    }

    /** Replaces the map of objects by id with a changed copy (objects come and go far less often than calls). */
    private synchronized void update(Consumer<Long2ObjectHashMap<Entry>> change) {
        Long2ObjectHashMap<Entry> next = new Long2ObjectHashMap<>(byId);
        change.accept(next);
        byId = next;
    }

    /** An object client {@code owner} is making here: its constructor runs in it ({@link #enterEntry}). */
    Entry newEntry(int owner, String name, String className) {
        return new Entry(-1, owner, name, className);
    }

    /** The object {@code made} was made and is served under {@code objectId}. */
    void register(long objectId, Entry made) {
        made.objectId = objectId;
        update(m -> m.put(objectId, made));
    }

    /** As {@link #enter}, for an object not served yet (its constructor runs). */
    Entry enterEntry(Entry e) {
        Entry prior = CURRENT.get();
        CURRENT.set(e);
        return prior;
    }

    /** The owner of object {@code objectId} if a client owns it and it is served here, else -1. */
    int ownerOf(long objectId) {
        Entry e = byId.get(objectId);
        return e == null ? -1 : e.owner;
    }

    /** The object left this server (it moved, or its owner is gone). */
    void remove(long objectId) {
        update(m -> m.remove(objectId));
    }

    /** Drops the entries of client {@code client}, which is gone, and returns the ids of its objects served here. */
    List<Long> removeClient(int client) {
        consoles.remove(client);
        List<Long> ids = new ArrayList<>();
        update(m -> m.values().removeIf(e -> {
            if (e.owner == client) {
                e.gone = true;
                ids.add(e.objectId);
                return true;
            }
            return false;
        }));
        return ids;
    }

    /** A call of {@code objectId} begins on this thread: returns what the thread ran before, for {@link #exit}. */
    Entry enter(long objectId) {
        Entry prior = CURRENT.get();
        Entry e = byId.get(objectId);
        if (e != null) {
            e.calls.increment();
        }
        CURRENT.set(e);
        return prior;
    }

    /** The call ends: its unfinished line is sent, and the thread goes back to {@code prior}. */
    void exit(Entry prior) {
        Entry e = CURRENT.get();
        if (e != null) {
            e.endOfCall();
        }
        CURRENT.set(prior);
    }

    private ClientIO io(int client) {
        return consoles.computeIfAbsent(client, c -> engine.proxy(new RemoteRef(c, ClientIO.OBJECT_ID,
            ClientIO.class.getName()), ClientIO.class, "cumulus.ClientIO of client " + c, 0));
    }

    /** The shortest window a call rate is measured over. */
    static final long MIN_RATE_WINDOW_NS = 1_000_000_000L;

    /**
     * Measures each object's calls per second since the previous measure, when at least
     * {@link #MIN_RATE_WINDOW_NS} passed since (else the rates stay as measured then). Asked by each status query, so
     * a live view that asks every few seconds sees the rate of its last interval.
     */
    synchronized void tick() {
        long now = nanoClock.getAsLong();
        long elapsed = now - lastTickNs;
        if (elapsed < MIN_RATE_WINDOW_NS) {
            return;
        }
        lastTickNs = now;
        for (Entry e : byId.values()) {
            long count = e.calls.sum();
            e.callsPerSecond = (count - e.callsAtTick) * 1e9 / elapsed;
            e.callsAtTick = count;
        }
    }

    /** What an administrator sees of the objects served here. */
    List<AdminStatus.ObjectStatus> status() {
        List<AdminStatus.ObjectStatus> list = new ArrayList<>();
        for (Entry e : byId.values()) {
            list.add(new AdminStatus.ObjectStatus(e.objectId, e.name, e.owner, e.className, engine.nodeId(),
                e.calls.sum(), e.callsPerSecond));
        }
        list.sort(java.util.Comparator.comparingLong(AdminStatus.ObjectStatus::objectId));
        return list;
    }
}
