package dev.cumulus.internal.singlevm;

import dev.cumulus.CumulusException;
import dev.cumulus.NotTransferableException;
import dev.cumulus.internal.codec.CodecLimits;
import org.agrona.UnsafeApi;

import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One node's view of the program's objects in the woven form (docs/design/SINGLEVM.md, "The woven form"): the masters
 * of the objects and arrays this node created that other nodes know (by id), its copies of objects, arrays and statics
 * homed elsewhere, and the two halves of every synchronization over them — {@link #invalidate} (every copy stale) and
 * {@link #flush} (every dirty field sent to its home, acknowledged). {@link SharedHeap} calls both inside its own
 * acquire and release; {@link SingleVmHooks} is how woven code reaches this. An object first published to another home
 * in a flush (docs/design/SINGLEVM.md, "Homed where first published") is named, adopted and twinned by the
 * {@link Publisher}, and its master made at the new home by the {@link PublicationReceiver}; this space orders their
 * steps within the flush and the write-back.
 *
 * <p>Threads: any thread of the node's program; the home side ({@link #serveFetch}, {@link #serveStatics},
 * {@link #serveWrites}) runs on whichever thread polled the request. Masters are read and written in place by the
 * program; copies are filled and snapshotted under their {@link Copy#lock}. Where locks nest, they are taken in this
 * order: the flush lock (one flush at a time), a copy's lock, the registry lock (the masters map's monitor).
 */
public final class ObjectSpace {
    private static final InheritableThreadLocal<ObjectSpace> CURRENT = new InheritableThreadLocal<>();
    private static final Set<ObjectSpace> OPEN = ConcurrentHashMap.newKeySet();
    /** The one open space of this JVM (a node process), or {@code null} with none or several (an in-process test). */
    private static volatile ObjectSpace sole;

    /** The class name of a plain {@code new Object()}, shared like an array: by identity, for its monitor. */
    static final String PLAIN_OBJECT = "java.lang.Object";
    /**
     * A node's answer to a fetch whose image would refer to an object the node is publishing to another home right
     * then (before that home stored it): the fetcher asks again.
     */
    static final String AWAITED = "(refers to an object on its way to its home)";

    /** On a serving thread: an image would refer to an object being published (see {@link #AWAITED}). */
    private static final class InWindow extends RuntimeException {
        InWindow() {
            super(null, null, false, false);
        }
    }

    /** Set while this thread serves another node's request, which must not wait for a flush. */
    private static final ThreadLocal<boolean[]> SERVING = ThreadLocal.withInitial(() -> new boolean[1]);

    private final SharedHeap heap;
    private final ClassLoader loader;
    private final int self;
    /**
     * The masters homed here, by id. Its monitor is the registry lock: it guards {@link #masterArrays}, a master's
     * registration and naming, and the {@link Publisher}'s window.
     */
    private final ConcurrentHashMap<Long, Object> masters = new ConcurrentHashMap<>();
    private final Map<Object, Long> masterArrays = new IdentityHashMap<>();
    private final ConcurrentHashMap<Long, Copy> copies = new ConcurrentHashMap<>();
    private final CopyTable arrayCopies = new CopyTable();
    private final ConcurrentHashMap<Class<?>, Copy> staticCopies = new ConcurrentHashMap<>();
    private final Set<Copy> dirty = ConcurrentHashMap.newKeySet();
    private final Publisher publisher;
    private final PublicationReceiver receiver;
    private final ReentrantLock flushLock = new ReentrantLock();
    private final LongAdder invalidations = new LongAdder();
    private final ProgramThreads threads;
    private final Initialisers initialisers = new Initialisers(this);

    /**
     * The object space of {@code heap}'s node for the program classes of {@code loader}; attaches itself to the heap
     * (its acquire and release cover this space's copies). With one open space in the JVM (a node process) every
     * thread uses it; with several (nodes as threads of one JVM) each thread uses the one it {@link #bind}s.
     */
    public ObjectSpace(SharedHeap heap, ClassLoader loader) {
        this.heap = heap;
        this.loader = loader;
        this.self = heap.nodeId();
        this.publisher = new Publisher(this, self, masters, masterArrays, copies, arrayCopies);
        this.receiver = new PublicationReceiver(this, self, masters, masterArrays);
        this.threads = new ProgramThreads(this, self, heap.size());
        heap.attach(this);
        SingleVmInvalidationsEvent.addSource(self, invalidations::sum);
        synchronized (OPEN) {
            OPEN.add(this);
            sole = OPEN.size() == 1 ? this : null;
        }
    }

    /** Makes this the space of the current thread and of the threads it starts. */
    public void bind() {
        CURRENT.set(this);
    }

    /** The space of the current thread. */
    /** As {@link #current()}, or {@code null} on a thread outside a single-VM node. */
    static ObjectSpace currentOrNull() {
        ObjectSpace s = sole;
        return s != null ? s : CURRENT.get();
    }

    static ObjectSpace current() {
        ObjectSpace s = sole;
        if (s != null) {
            return s;
        }
        s = CURRENT.get();
        if (s == null) {
            throw new IllegalStateException("thread " + Thread.currentThread().getName() + " runs woven single-VM "
                + "code outside a single-VM node: run the program with cumulus run --single-vm");
        }
        return s;
    }

    /** Closes this space (the node's program ended). */
    public void close() {
        SingleVmInvalidationsEvent.removeSource(self);
        synchronized (OPEN) {
            OPEN.remove(this);
            sole = OPEN.size() == 1 ? OPEN.iterator().next() : null;
        }
        CURRENT.remove();
    }

    /** The program's threads as this node starts and runs them. */
    ProgramThreads threads() {
        return threads;
    }

    SharedHeap heap() {
        return heap;
    }

    int nodeId() {
        return self;
    }

    Class<?> loadClass(String name) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new CumulusException("node " + self + " cannot load class " + name + " of the shared heap: " + e);
        }
    }

    // ---- ids and copies ------------------------------------------------------------------------------------------

    /**
     * The cluster-wide id of {@code v} as an image refers to it: in a write-back that publishes to {@code p}'s home,
     * as {@link Publisher#idOf} names it; with {@code p == null} (any other message), as {@link #sentIdOf}.
     */
    long idOf(Object v, Publication p) {
        return p == null ? sentIdOf(v) : publisher.idOf(v, p);
    }

    /**
     * The id of {@code v} for a message other than a publishing write-back (a fetch's answer, a volatile write, a
     * thread's task). An object that a flush is publishing right then must not be named before its home stored it:
     * a program thread waits for that flush; a thread serving another node's request, which must not wait, gives up
     * ({@link InWindow}: its answer tells the asker to ask again).
     */
    long sentIdOf(Object v) {
        long id = idOf(v);
        if (ObjectIds.namedElsewhere(id) && ObjectIds.home(id) != self && publisher.inWindow(v)) {
            if (SERVING.get()[0]) {
                throw new InWindow();
            }
            flushLock.lock(); // the publishing flush holds it until its homes acknowledged
            flushLock.unlock();
        }
        return id;
    }

    /** The cluster-wide id of shared object or array {@code v}; gives a master of this node one when it first leaves. */
    long idOf(Object v) {
        if (v instanceof SharedObject) {
            ClassLayout layout = ClassLayout.of(v.getClass());
            long id = (long) layout.id.getVolatile(v);
            if (id != 0) {
                return id;
            }
            synchronized (masters) {
                id = (long) layout.id.getVolatile(v);
                if (id == 0) {
                    id = heap.allocate(0);
                    masters.put(id, v);
                    layout.id.setVolatile(v, id);
                }
                return id;
            }
        }
        return arrayId(v, true);
    }

    /** The id {@code v} has already (it escaped its node, or was locked), or 0: unlike {@link #idOf}, names nothing. */
    long existingId(Object v) {
        if (v instanceof SharedObject) {
            return (long) ClassLayout.of(v.getClass()).id.getVolatile(v);
        }
        return arrayId(v, false);
    }

    /** The id of array (or plain {@code Object}) {@code v}; one named here now if it has none and {@code name}, else 0. */
    private long arrayId(Object v, boolean name) {
        Copy copy = arrayCopies.get(v);
        if (copy != null) {
            return copy.id;
        }
        synchronized (masters) {
            Long id = masterArrays.get(v);
            if (id == null) {
                id = publisher.publishingId(v);
            }
            if (id == null && name) {
                id = heap.allocate(0);
                masterArrays.put(v, id);
                masters.put(id, v);
            }
            return id == null ? 0 : id;
        }
    }

    /** The object with id {@code id}: a master of this node, or this node's copy (made stale on first sight). */
    Object resolve(long id, String className) {
        return resolve(id, className, copy -> { });
    }

    /**
     * As {@link #resolve(long, String)}; a copy made now is first handed to {@code prepare}, before any other thread
     * can find it (a program exception's copy gets the message and trace its reference carries).
     */
    Object resolve(long id, String className, java.util.function.Consumer<Object> prepare) {
        if (ObjectIds.home(id) == self) {
            Object m = masters.get(id);
            if (m == null) {
                throw new IllegalStateException("node " + self + " has no shared object " + ObjectIds.describe(id));
            }
            return m;
        }
        Copy c = copies.get(id);
        if (c != null) {
            return c.target;
        }
        Object blank = blank(id, className); // may wait for its class's initialisation here: no lock is held
        synchronized (copies) {
            c = copies.get(id);
            if (c == null) {
                c = copyRecord(id, blank);
                prepare.accept(c.target);
                copies.put(id, c);
            }
            return c.target;
        }
    }

    /** A new object or array to be this node's copy of {@code id}, whose reference gives its class as {@code text}. */
    private Object blank(long id, String text) {
        if (text.equals(PLAIN_OBJECT)) { // a new Object(): no fields, only identity and a monitor
            return new Object();
        }
        int slash = text.lastIndexOf('/');
        if (text.startsWith("[") && slash > 0) {
            return Array.newInstance(loadClass(text.substring(0, slash)).getComponentType(),
                Integer.parseInt(text.substring(slash + 1)));
        }
        return instantiate(loadClass(text), id, "its copy of");
    }

    /**
     * A new object of program class {@code type}, to be {@code what} shared object {@code id} here. The JVM makes
     * no object of a class whose initialisation failed, where one JVM keeps the objects its initializer made before it
     * threw: such an object cannot reach this node, a limit (the run ends).
     */
    Object instantiate(Class<?> type, long id, String what) {
        try {
            return ClassLayout.instantiate(type);
        } catch (ReflectiveOperationException e) {
            throw new CumulusException("node " + self + " cannot make " + what + " a shared " + type.getName() + " "
                + ObjectIds.describe(id) + ": " + e, e);
        } catch (Error e) {
            if (e instanceof SingleVmLimitError || !UnsafeApi.shouldBeInitialized(type)) {
                throw e;
            }
            throw LimitStop.stop(this, "node " + self + " cannot make " + what + " " + ObjectIds.describe(id)
                + ", a " + type.getName() + ", which its static initializer made before it failed (" + e
                + "): the JVM makes no object of a class whose initialisation failed; keep such objects from threads "
                + "of other nodes, or let the initializer succeed");
        }
    }

    /** The copy record of {@code blank}, now this node's copy of {@code id} (under the registry of copies). */
    private Copy copyRecord(long id, Object blank) {
        Class<?> type = blank.getClass();
        if (type.isArray()) {
            Copy c = new Copy(Copy.Kind.ARRAY, id, blank, null, ObjectIds.home(id), Array.getLength(blank));
            arrayCopies.add(c);
            SingleVmHooks.remoteArrays = true;
            return c;
        }
        if (type == Object.class) {
            Copy c = new Copy(Copy.Kind.ARRAY, id, blank, null, ObjectIds.home(id), 0);
            c.arrayState = Epochs.ALWAYS_VALID;
            arrayCopies.add(c);
            return c;
        }
        ClassLayout layout = ClassLayout.of(type);
        layout.id.setVolatile(blank, id);
        layout.state.setVolatile(blank, Epochs.NEVER_FILLED);
        return new Copy(Copy.Kind.OBJECT, id, blank, layout, ObjectIds.home(id), layout.size());
    }

    private Copy copyOf(Object o) {
        Copy c = copies.get((long) ClassLayout.of(o.getClass()).id.getVolatile(o));
        if (c == null) {
            throw new IllegalStateException("node " + self + " has no copy record for a " + o.getClass().getName());
        }
        return c;
    }

    /** This node's copy record of array {@code a}, or {@code null} if {@code a} is not a copy (a master or private). */
    Copy arrayCopy(Object a) {
        return arrayCopies.get(a);
    }

    private Copy staticsCopy(Class<?> type) {
        return staticCopies.computeIfAbsent(type, t -> {
            ClassLayout layout = ClassLayout.statics(t);
            return new Copy(Copy.Kind.STATICS, 0, t, layout, 0, layout.size());
        });
    }

    // ---- the program's accesses (slow paths of the woven code) ----------------------------------------------------

    /**
     * Copy {@code o} was below the node's threshold: fills it from its home (Hyperion's loadIntoCache) unless another
     * thread filled it in the current epoch meanwhile ({@link Epochs#validHere}).
     */
    void fetch(Object o, String field) {
        if (!Epochs.validHere((int) ClassLayout.of(o.getClass()).state.getAcquire(o))) {
            fill(copyOf(o), field);
        }
    }

    /** The field a fetch for {@link #readAll} names in its profile event. */
    static final String ALL_FIELDS = "*";

    /**
     * JDK code is about to read every field of program object {@code o} (its {@code Object.clone}, a record's
     * generated {@code equals}, {@code hashCode} or {@code toString}), unwoven: a copy is made readable first, as a
     * woven read of each field would — filled once if its fields are all final, else when stale for this thread; a
     * field that holds a JDK object this node cannot use stops the run, as a woven read of it would.
     */
    void readAll(Object o) {
        ClassLayout layout = ClassLayout.of(o.getClass());
        int state = (int) layout.state.getAcquire(o);
        if (state == 0) {
            return;
        }
        Copy c = copyOf(o);
        if (!(layout.allFinal ? state != Epochs.NEVER_FILLED : Epochs.validHere(state))) {
            fill(c, ALL_FIELDS);
        }
        checkForeign(c, 0, c.length()); // the JDK reads every field: one this node cannot use stops the run
    }

    /**
     * {@code clone} was made by {@code Object.clone} from program object {@code original}: it copied the original's
     * {@code $cumulus$state} and {@code $cumulus$id} with its fields. A new object is this node's own master, with no
     * id until its reference first leaves the node, as any {@code new} object.
     */
    static void clonedFrom(Object clone, Object original) {
        ClassLayout layout = ClassLayout.of(clone.getClass());
        long originalId = (long) ClassLayout.of(original.getClass()).id.getVolatile(original);
        if ((long) layout.id.getVolatile(clone) != originalId) {
            return; // not Object.clone's copy of the original: an object a program clone method returned
        }
        layout.id.setVolatile(clone, 0L);
        layout.state.setVolatile(clone, 0);
    }

    /**
     * The first use of class {@code type} on this node (not node 0), from its static initializer here: node 0, the
     * home of its statics, initialises it now (its initializer runs there, with whatever it does to other classes'
     * statics and objects), and this node then acquires. On one JVM the class is initialised at its first use, and
     * that initialisation happens before the use (JLS 12.4.2: the using thread either runs the initializer or waits
     * for it under the class's initialisation lock); so a thread here that uses a class whose initializer registers
     * itself somewhere finds it registered, whether or not it reads one of the class's statics. A thread serving
     * another node's request must not wait for a reply: a class first used there (a copy of an object of it made
     * while storing an answer) was initialised at node 0 already, by the node that made that object. Only classes
     * with a static initializer of their own come here (the weaver's {@code staticsHome} serves the others). Node 0
     * answers once its initializer's writes are at their homes; while this waits for it, it holds the class's
     * initialisation lock here, so it stores the write-backs that would make an object of the class here itself
     * ({@link Initialisers}).
     */
    void initialiseAtHome(Class<?> type) {
        if (SERVING.get()[0]) {
            Initialisers.insideInitialisation(type);
            // initialised here for a store, not for a use: the thread here that uses the class next acquires through
            // this initialisation's end, so it sees what the initializer wrote at node 0, as after its own first use
            heap.acquire();
            return;
        }
        while (true) {
            ObjectImage answer;
            try {
                answer = initialisers.await(type, heap.peers().initialiseStatics(0, type.getName(),
                    Thread.currentThread().getName()));
            } catch (NotTransferableException e) {
                throw tooBig("receive", e);
            }
            if (InitFailure.is(answer)) {
                heap.acquire(); // a failed initialisation is over too: what it wrote before it threw is seen here
                throw InitFailure.error(this, answer);
            }
            if (!AWAITED.equals(answer.className())) {
                break;
            }
            Thread.onSpinWait(); // node 0 is in the window of a publication of the statics' objects: ask again
        }
        heap.acquire();
    }

    /** Fills every stale statics copy of {@code type} and its program superclasses from node 0. */
    void fetchStatics(Class<?> type, String field) {
        for (Class<?> k = type; k != null && ClassLayout.isProgramClass(k); k = k.getSuperclass()) {
            Copy c = staticsCopy(k);
            if (!Epochs.validHere(c.state())) {
                fill(c, field);
            }
        }
    }

    /**
     * Fills copy {@code c} from its home as of the current epoch. A fill never makes a copy older: if another thread
     * filled it from a fetch sent later (in a later epoch) meanwhile, this one leaves it as it is, so a thread that
     * acquired never reads a value fetched before its acquire. A fill sent before an invalidation leaves the copy
     * stale for the threads past that invalidation (its epoch is below their threshold). A fetch that a write-back of
     * the copy overtook is sent again ({@link #apply}).
     */
    void fill(Copy c, String field) {
        if (c.blocked()) {
            fillRange(c, 0, c.length());
            return;
        }
        while (!apply(c, fetchWhole(c, field))) {
            // a write-back of this copy landed while the fetch was out: its answer may predate it, ask again
        }
    }

    /**
     * What a fetch brought for a copy (or a block of one): the home's entries, the epoch it was sent in, and how many
     * entries of the copy (or block) this node's write-backs had made clean before it was sent.
     */
    record Fetched(ObjectImage image, int epoch, int cleanings) {
    }

    /** Fetches copy {@code c} whole from its home (the read of {@code field} missed). */
    Fetched fetchWhole(Copy c, String field) {
        int cleanings = cleanings(c, 0);
        int started = Epochs.current();
        SingleVmFetchEvent event = new SingleVmFetchEvent();
        event.begin();
        ObjectImage image = switch (c.kind) {
            case OBJECT, ARRAY -> fetchImage(c);
            case STATICS -> fetching(() -> heap.peers().fetchStatics(0, ((Class<?>) c.target).getName()));
        };
        fetched(event, c, field, image.length());
        return new Fetched(image, started, cleanings);
    }

    /**
     * The image of object or array copy {@code c} from its home. An object published to its home by a third node may
     * reach this node (through that node) before its image reaches the home, which then answers that it has none yet:
     * the image is on its way, so ask again.
     */
    private ObjectImage fetchImage(Copy c) {
        return fetching(() -> heap.peers().fetchObject(c.home, c.id));
    }

    /**
     * {@code fetch}'s answer; asked again while it is {@link #AWAITED}: the image would refer to an object its node is
     * publishing right then, whose home has it once that node's flush is acknowledged.
     */
    private ObjectImage fetching(java.util.function.Supplier<ObjectImage> fetch) {
        while (true) {
            ObjectImage image;
            try {
                image = fetch.get();
            } catch (NotTransferableException e) {
                throw tooBig("receive", e);
            }
            if (InitFailure.is(image)) {
                throw InitFailure.error(this, image);
            }
            if (!AWAITED.equals(image.className())) {
                return image;
            }
            Thread.onSpinWait();
        }
    }

    /** Cleanings of block {@code b} of {@code c} so far, read before a fetch is sent (the write-backs it follows). */
    private static int cleanings(Copy c, int b) {
        c.lock.lock();
        try {
            return c.cleanings(b);
        } finally {
            c.lock.unlock();
        }
    }

    private void fetched(SingleVmFetchEvent event, Copy c, String field, int entries) {
        event.end();
        if (event.shouldCommit()) {
            event.node = self;
            event.homeNode = c.home;
            event.className = c.className();
            event.field = field;
            event.entries = entries;
            event.commit();
        }
    }

    /**
     * Before a read of elements {@code [from, from + count)} of array copy {@code c}: fills what the calling thread may
     * not read — the whole copy, or of a large array's copy the stale blocks of the range only.
     */
    void fillRange(Copy c, int from, int count) {
        if (!c.blocked()) {
            if (!Epochs.validHere(c.arrayState)) {
                fill(c, "[]");
            }
            return;
        }
        int n = c.length();
        if (count <= 0 || from >= n || from + count <= 0) {
            return; // nothing of the array is read (the access itself fails, as on one JVM)
        }
        int last = (Math.min(n, from + count) - 1) / Copy.BLOCK;
        for (int b = Math.max(0, from) / Copy.BLOCK; b <= last; b++) {
            if (!Epochs.validHere(c.blockStates.get(b))) {
                fillBlock(c, b);
            }
        }
    }

    /** Fills block {@code b} of a large array's copy from its home, as {@link #fill} fills a whole copy. */
    private void fillBlock(Copy c, int b) {
        while (!applyBlock(c, b, fetchBlock(c, b))) {
            // a write-back of this block landed while the fetch was out: its answer may predate it, ask again
        }
    }

    /** Fetches block {@code b} of a large array's copy from its home. */
    Fetched fetchBlock(Copy c, int b) {
        int cleanings = cleanings(c, b);
        int started = Epochs.current();
        int from = b * Copy.BLOCK;
        int count = Math.min(Copy.BLOCK, c.length() - from);
        SingleVmFetchEvent event = new SingleVmFetchEvent();
        event.begin();
        ObjectImage image = fetching(() -> heap.peers().fetchElements(c.home, c.id, from, count));
        fetched(event, c, "[]", count);
        return new Fetched(image, started, cleanings);
    }

    /**
     * Stores fetched block {@code b} in the clean elements of large array copy {@code c}, as {@link #apply} stores a
     * whole copy; false if a write-back of the block landed since the fetch was sent (nothing stored: fetch again).
     */
    boolean applyBlock(Copy c, int b, Fetched f) {
        int state = Epochs.filledIn(f.epoch());
        int from = b * Copy.BLOCK;
        c.lock.lock();
        try {
            if (c.blockStates.get(b) >= state) {
                return true;
            }
            if (c.cleanings(b) != f.cleanings()) {
                return false;
            }
            for (int j = 0; j < f.image().length(); j++) {
                if (!c.isDirty(from + j)) {
                    c.set(from + j, entry(c, from + j, f.image(), j));
                }
            }
            c.blockStates.set(b, state);
            return true;
        } finally {
            c.lock.unlock();
        }
    }

    /**
     * Stores fetched image {@code f} in copy {@code c}'s clean entries, unless the copy was filled meanwhile from a
     * fetch at least as recent. False, storing nothing, if a write-back of the copy made entries clean since the fetch
     * was sent: the home may have answered before that write-back reached it, and its older values would overwrite
     * this node's own writes (fetch again: a fetch sent after the write-back's acknowledgement sees them).
     */
    boolean apply(Copy c, Fetched f) {
        int state = Epochs.filledIn(f.epoch());
        c.lock.lock();
        try {
            if (c.state() >= state) {
                return true; // filled meanwhile from a fetch at least as recent
            }
            if (c.cleanings(0) != f.cleanings()) {
                return false;
            }
            ObjectImage image = f.image();
            for (int i = 0; i < image.length(); i++) {
                if (!c.unsent(i, c.get(i))) {
                    Object v = entry(c, i, image, i);
                    c.set(i, v);
                    c.twinEntry(i, v);
                }
            }
            c.setState(state);
            return true;
        } finally {
            c.lock.unlock();
        }
    }

    /**
     * The value entry {@code i} of copy {@code c} takes from entry {@code j} of a fetched {@code image} (the caller
     * holds the copy's lock): the decoded value, or for an object this node cannot use (a mutable JDK object another node
     * made, {@link ImageCodec#foreign}) {@code null}, the entry marked foreign with the error its read gives
     * ({@link #checkForeign}); so a fill never fails for an entry the program may never read here. The mark is set
     * before the {@code null} is stored, and cleared by a fill that brings a usable value or a write of this node.
     */
    private Object entry(Copy c, int i, ObjectImage image, int j) {
        if (ImageCodec.isForeign(image, j)) {
            c.setForeign(i, ImageCodec.foreign(this, image, j, c.where(i)));
            return null;
        }
        c.setForeign(i, null);
        return ImageCodec.decode(this, image, j, c.typeOf(i), c.where(i));
    }

    /**
     * A woven read of field {@code owner.name} of copy {@code o} gave {@code null}: if the entry is foreign (its home
     * holds a JDK object this node cannot use, {@link #entry}), the read stops the run with the error a decode of it
     * gives; else nothing.
     */
    void checkForeign(Object o, Class<?> owner, String name) {
        Copy c = copies.get((long) ClassLayout.of(o.getClass()).id.getVolatile(o));
        if (c != null) {
            failIfForeign(c.foreign(c.layout.indexOf(owner, name)));
        }
    }

    /** As {@link #checkForeign(Object, Class, String)} for static field {@code owner.name} on a node other than 0. */
    void checkForeignStatic(Class<?> owner, String name) {
        Class<?> declaring = declaringClass(owner, name);
        Copy c = staticCopies.get(declaring);
        if (c != null) {
            failIfForeign(c.foreign(c.layout.indexOf(declaring, name)));
        }
    }

    /**
     * Before (or after) a read of elements {@code [from, to)} of copy {@code c} that the woven code does not check
     * one by one (JDK code given the array, {@code System.arraycopy}, {@code clone}): the run stops if one is foreign.
     */
    void checkForeign(Copy c, int from, int to) {
        failIfForeign(c.firstForeign(from, to));
    }

    private void failIfForeign(String message) {
        if (message != null) {
            throw LimitStop.stop(this, message);
        }
    }

    /** Before a write to copy {@code o}: holds its lock until {@link #endWrite}. */
    /** Before a write of a field of copy {@code o}: its copy record, locked. */
    Copy beginWrite(Object o) {
        Copy c = copyOf(o);
        c.lock.lock();
        return c;
    }

    /** After the write of field {@code owner.name} of copy {@code o}: its dirty bit; releases the lock. */
    void endWrite(Object o, Class<?> owner, String name) {
        Copy c = copyOf(o);
        try {
            markDirty(c, c.layout.indexOf(owner, name));
        } finally {
            c.lock.unlock();
        }
    }

    /** Before a write of static field {@code owner.name} on a node other than 0: the statics' copy record, locked. */
    Copy beginStaticWrite(Class<?> owner, String name) {
        Copy c = staticsCopy(declaringClass(owner, name));
        c.lock.lock();
        return c;
    }

    void endStaticWrite(Class<?> owner, String name) {
        Class<?> declaring = declaringClass(owner, name);
        Copy c = staticsCopy(declaring);
        try {
            markDirty(c, c.layout.indexOf(declaring, name));
        } finally {
            c.lock.unlock();
        }
    }

    /** Entry {@code i} of copy {@code c} was written here (the caller holds its lock). */
    void markDirty(Copy c, int i) {
        if (c.markDirty(i)) {
            dirty.add(c);
        }
    }

    /** A volatile read of field {@code owner.name} of {@code o}: at the home, then an acquire. */
    Object getVolatile(Object o, Class<?> owner, String name) {
        ClassLayout layout = ClassLayout.of(o.getClass());
        int i = layout.indexOf(owner, name);
        Object v;
        if ((int) layout.state.getVolatile(o) == 0) {
            v = layout.handles[i].getVolatile(o);
        } else {
            Copy c = copyOf(o);
            v = ImageCodec.decode(this, fetchImage(c), i,
                layout.fields[i].getType(),
                c.where(i));
        }
        heap.acquire();
        return v;
    }

    /** A release (Hyperion's updateMainMemory) of the current thread, as before a volatile write. */
    void release() {
        heap.release();
    }

    /** A volatile write: a release, then the write at the home (acknowledged). */
    void putVolatile(Object o, Object value, Class<?> owner, String name) {
        heap.release();
        ClassLayout layout = ClassLayout.of(o.getClass());
        int i = layout.indexOf(owner, name);
        layout.handles[i].setVolatile(o, value);
        if ((int) layout.state.getVolatile(o) != 0) {
            Copy c = copyOf(o);
            sendOne(c.home, c.id, layout, i, value, o.getClass().getName());
        }
    }

    Object getStaticVolatile(Class<?> owner, String name) {
        Class<?> declaring = declaringClass(owner, name);
        ClassLayout layout = ClassLayout.statics(declaring);
        int i = layout.indexOf(declaring, name);
        Object v;
        if (self == 0) {
            v = layout.handles[i].getVolatile();
        } else {
            v = ImageCodec.decode(this, fetching(() -> heap.peers().fetchStatics(0, declaring.getName())), i,
                layout.fields[i].getType(), "static field " + declaring.getName() + '.' + name);
        }
        heap.acquire();
        return v;
    }

    void putStaticVolatile(Object value, Class<?> owner, String name) {
        heap.release();
        Class<?> declaring = declaringClass(owner, name);
        ClassLayout layout = ClassLayout.statics(declaring);
        int i = layout.indexOf(declaring, name);
        layout.handles[i].setVolatile(value);
        if (self != 0) {
            sendOne(0, 0, layout, i, value, declaring.getName());
        }
    }

    private void writeObjects(int home, long[] ids, int[] offsets, ObjectImage[] images) {
        try {
            heap.peers().writeObjects(home, ids, offsets, images);
        } catch (NotTransferableException e) {
            throw tooBig("send", e);
        }
    }

    /**
     * The program's data do not fit one heap message (the RPC codec refused it): the run cannot go on as one JVM
     * would, so it stops (a write-back that cannot be sent would otherwise fail the release half done).
     */
    private SingleVmLimitError tooBig(String verb, NotTransferableException e) {
        return LimitStop.stop(this, "node " + self + " cannot " + verb + " the program's data in one message of the "
            + "shared heap (" + e.getMessage() + "): a message of the single-VM mode carries at most "
            + CodecLimits.DEFAULTS.maxMessageBytes() / (1 << 20) + " MiB (share big data in arrays, which move a block of "
            + Copy.BLOCK + " elements at a time)");
    }

    private void sendOne(int home, long id, ClassLayout layout, int i, Object value, String className) {
        ObjectImage image = ObjectImage.empty(className, layout.size());
        ImageCodec.encode(this, image, i, layout.fields[i].getType(), value);
        writeObjects(home, new long[] {id}, new int[1], new ObjectImage[] {image});
    }

    // ---- acquire and release ----------------------------------------------------------------------------------------

    /** Hyperion's invalidateCache: every copy of this node is stale (its dirty fields stay); a new epoch. */
    void invalidate() {
        Epochs.advance();
        invalidations.increment();
    }

    /**
     * {@code synchronized (o)} entry on the cluster-wide monitor {@code id}; the wait for a monitor homed on another
     * node is recorded (not a recursive entry, which asks nobody).
     */
    void monitorEnter(Object o, long id) {
        if (ObjectIds.home(id) == self || heap.holdsLock(id)) {
            heap.monitorEnter(id);
            return;
        }
        SingleVmLockWaitEvent event = new SingleVmLockWaitEvent();
        event.begin();
        heap.monitorEnter(id);
        event.end();
        if (event.shouldCommit()) {
            event.node = self;
            event.homeNode = ObjectIds.home(id);
            event.className = o.getClass().getName();
            event.commit();
        }
    }

    /**
     * Hyperion's updateMainMemory: sends every dirty field and element of this node's copies to its home, one call
     * per home, and waits for the acknowledgements. A dirty bit clears only then, and only if the entry still holds
     * the value sent. Flushes run one at a time.
     */
    void flush() {
        if (dirty.isEmpty() && !publisher.anyTwinned()) {
            return;
        }
        flushLock.lock();
        try {
            publisher.markTwinDifferences();
            Map<Integer, List<Written>> byHome = new HashMap<>();
            Map<Integer, Publication> published = new HashMap<>();
            for (Copy c : dirty) {
                c.lock.lock();
                try {
                    if (!c.anyDirty()) {
                        continue;
                    }
                    Publication p = published.computeIfAbsent(c.home, Publication::new);
                    byHome.computeIfAbsent(c.home, h -> new ArrayList<>()).addAll(snapshot(c, p));
                } finally {
                    c.lock.unlock();
                }
            }
            boolean publishing = false;
            for (Publication p : published.values()) {
                p.encodeAll(this);
                publishing |= !p.copies.isEmpty();
            }
            // A write-back to one home may refer to an object published to another in this flush: with more than one
            // home, every home stores what is published to it before any other write-back can name it.
            boolean first = publishing && byHome.size() > 1;
            if (first) {
                for (Publication p : published.values()) {
                    if (!p.copies.isEmpty()) {
                        writeBack(p.home, List.of(), p);
                    }
                }
            }
            for (Map.Entry<Integer, List<Written>> e : byHome.entrySet()) {
                writeBack(e.getKey(), e.getValue(), first ? null : published.get(e.getKey()));
            }
            for (List<Written> list : byHome.values()) {
                for (Written w : list) {
                    clearIfUnchanged(w);
                }
            }
        } finally {
            flushLock.unlock();
        }
    }

    /**
     * One write-back call to {@code home}: the dirty entries {@code list} and, unless {@code p} is {@code null}, the
     * objects {@code p} publishes there, whole; waits for the acknowledgement.
     */
    private void writeBack(int home, List<Written> list, Publication p) {
        int published = p == null ? 0 : p.copies.size();
        int n = list.size() + published;
        long[] ids = new long[n];
        int[] offsets = new int[n];
        ObjectImage[] images = new ObjectImage[n];
        for (int k = 0; k < list.size(); k++) {
            ids[k] = list.get(k).copy().id;
            offsets[k] = list.get(k).offset();
            images[k] = list.get(k).image();
        }
        for (int k = 0; k < published; k++) {
            ids[list.size() + k] = p.copies.get(k).id;
            offsets[list.size() + k] = Publication.WHOLE;
            images[list.size() + k] = p.images.get(k);
        }
        SingleVmWriteBackEvent[] events = new SingleVmWriteBackEvent[list.size()];
        for (int k = 0; k < events.length; k++) {
            events[k] = new SingleVmWriteBackEvent();
            events[k].begin();
        }
        writeObjects(home, ids, offsets, images);
        if (p != null) {
            publisher.adopted(p);
        }
        for (int k = 0; k < events.length; k++) {
            writtenBack(events[k], list.get(k), events.length);
        }
    }

    private void writtenBack(SingleVmWriteBackEvent event, Written w, int callObjects) {
        event.end();
        if (!event.shouldCommit()) {
            return;
        }
        Copy c = w.copy();
        ObjectImage image = w.image();
        StringBuilder fields = new StringBuilder();
        int entries = 0;
        for (int j = 0; j < image.length(); j++) {
            if (image.kinds()[j] != ImageCodec.ABSENT) {
                entries++;
                if (c.kind != Copy.Kind.ARRAY) {
                    fields.append(fields.isEmpty() ? "" : ",").append(c.layout.simpleNameOf(j));
                }
            }
        }
        event.node = self;
        event.homeNode = c.home;
        event.className = c.className();
        event.fields = c.kind == Copy.Kind.ARRAY ? "[]" : fields.toString();
        event.entries = entries;
        event.callObjects = callObjects;
        event.commit();
    }

    /** Dirty entries of {@code copy} sent in a flush: entry {@code j} of {@code image} is entry {@code offset + j}. */
    private record Written(Copy copy, int offset, ObjectImage image) {
    }

    /**
     * The dirty entries of {@code c}: one image, or for a large array's copy one per block with a dirty element; the
     * originals they refer to that never left this node are published to {@code p}'s home, {@code c}'s.
     */
    private List<Written> snapshot(Copy c, Publication p) {
        int n = c.length();
        if (!c.blocked()) {
            return List.of(new Written(c, 0, image(c, 0, n, p)));
        }
        List<Written> written = new ArrayList<>();
        for (int from = 0; from < n; from += Copy.BLOCK) {
            int to = Math.min(n, from + Copy.BLOCK);
            if (c.anyDirty(from, to)) {
                written.add(new Written(c, from, image(c, from, to, p)));
            }
        }
        return written;
    }

    /** The dirty entries among {@code [from, to)} of {@code c}, entry {@code from} first. */
    private ObjectImage image(Copy c, int from, int to, Publication p) {
        ObjectImage image = ObjectImage.empty(c.className(), to - from);
        for (int i = from; i < to; i++) {
            if (c.isDirty(i)) {
                ImageCodec.encode(this, p, image, i - from, c.typeOf(i), c.get(i));
            }
        }
        return image;
    }

    private void clearIfUnchanged(Written w) {
        Copy c = w.copy();
        ObjectImage sent = w.image();
        c.lock.lock();
        try {
            ObjectImage now = ObjectImage.empty(sent.className(), sent.length());
            for (int j = 0; j < sent.length(); j++) {
                int i = w.offset() + j;
                if (sent.kinds()[j] != ImageCodec.ABSENT) {
                    ImageCodec.encode(this, now, j, c.typeOf(i), c.get(i));
                    if (now.kinds()[j] == sent.kinds()[j] && now.bits()[j] == sent.bits()[j]
                            && java.util.Objects.equals(now.texts()[j], sent.texts()[j])) {
                        c.clearDirty(i);
                        c.twinEntry(i, c.get(i));
                    }
                }
            }
            if (!c.anyDirty()) {
                dirty.remove(c);
            }
        } finally {
            c.lock.unlock();
        }
    }

    // ---- the home side ----------------------------------------------------------------------------------------------

    /**
     * Runs a request of another node on the polling thread as a thread of this node (decoding may make copies, and a
     * class initializer may run, both of which ask for the current space).
     */
    <T> T serving(java.util.function.Supplier<T> request) {
        ObjectSpace before = CURRENT.get();
        CURRENT.set(this);
        boolean[] serving = SERVING.get();
        boolean wasServing = serving[0];
        serving[0] = true;
        try {
            return request.get();
        } finally {
            serving[0] = wasServing;
            if (before == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(before);
            }
        }
    }

    /** Elements {@code [from, from + count)} of master array {@code id} (a block of a large array). */
    ObjectImage serveElements(long id, int from, int count) {
        try {
            return elements(id, from, count);
        } catch (InWindow e) {
            return ObjectImage.empty(AWAITED, 0);
        }
    }

    private ObjectImage elements(long id, int from, int count) {
        Object m = master(id);
        if (!m.getClass().isArray() || from < 0 || count < 0 || from + count > Array.getLength(m)) {
            throw new IllegalArgumentException("node " + self + ": elements " + from + " to " + (from + count)
                + " of " + ObjectIds.describe(id) + " do not exist");
        }
        ObjectImage image = ObjectImage.empty(m.getClass().getName(), count);
        Class<?> component = m.getClass().getComponentType();
        VarHandle.acquireFence();
        for (int j = 0; j < count; j++) {
            ImageCodec.encode(this, image, j, component, Array.get(m, from + j));
        }
        return image;
    }

    /** The image of master {@code id} (a fetch from another node). */
    ObjectImage serveFetch(long id) {
        try {
            return image(id);
        } catch (InWindow e) {
            return ObjectImage.empty(AWAITED, 0);
        }
    }

    private ObjectImage image(long id) {
        Object m = master(id);
        if (m.getClass() == Object.class) {
            return ObjectImage.empty(PLAIN_OBJECT, 0);
        }
        if (m.getClass().isArray()) {
            int n = Array.getLength(m);
            ObjectImage image = ObjectImage.empty(m.getClass().getName(), n);
            VarHandle.acquireFence();
            for (int i = 0; i < n; i++) {
                ImageCodec.encode(this, image, i, m.getClass().getComponentType(), Array.get(m, i));
            }
            return image;
        }
        ClassLayout layout = ClassLayout.of(m.getClass());
        ObjectImage image = ObjectImage.empty(m.getClass().getName(), layout.size());
        for (int i = 0; i < layout.size(); i++) {
            ImageCodec.encode(this, image, i, layout.typeOf(i), layout.getVolatile(m, i));
        }
        return image;
    }

    /**
     * The image of the statics of {@code className} (node 0; initialises the class first), or, when its initialisation
     * fails, the failure ({@link InitFailure}).
     */
    ObjectImage serveStatics(String className) {
        try {
            return statics(className);
        } catch (InWindow e) {
            return ObjectImage.empty(AWAITED, 0);
        }
    }

    /**
     * {@link #serveStatics}, then a release: the initializer's writes to objects homed on other nodes (and any other
     * thread's here) reach their homes before the node that asked acquires, as the end of a class's initialisation
     * happens before its use on one JVM (JLS 12.4.2). On a thread of its own ({@link HeapService#initialiseStatics}),
     * which initialises no class further down its stack: the class is initialised, or failed, when the statics are in.
     */
    ObjectImage serveInitialisation(String className) {
        ObjectImage statics = serveStatics(className);
        flush();
        return statics;
    }

    private ObjectImage statics(String className) {
        Class<?> type;
        try {
            type = Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            throw new CumulusException("node " + self + " cannot load class " + className + ": " + e);
        } catch (SingleVmLimitError e) {
            throw e; // the initializer went beyond a limit: the run ends
        } catch (Error e) { // what the initializer threw, in an ExceptionInInitializerError or as it was
            return InitFailure.image(this, e);
        }
        ClassLayout layout = ClassLayout.statics(type);
        ObjectImage image = ObjectImage.empty(className, layout.size());
        for (int i = 0; i < layout.size(); i++) {
            ImageCodec.encode(this, image, i, layout.fields[i].getType(), layout.handles[i].getVolatile());
        }
        return image;
    }

    /**
     * The program classes not initialised here that storing write-back {@code offsets, images} would make objects of
     * (empty mostly); such a write-back is stored through {@link #storeInitialising}.
     */
    List<Class<?>> uninitialisedFor(int[] offsets, ObjectImage[] images) {
        return initialisers.uninitialisedFor(offsets, images);
    }

    /** Runs {@code work}, a write-back's store and reply that needs the uninitialised {@code classes}, in time. */
    void storeInitialising(List<Class<?>> classes, Runnable work) {
        initialisers.storeInitialising(classes, work);
    }

    /**
     * Stores the present entries of written images in their masters (a write-back, or a volatile write). The objects
     * published here are stored whole before any other entry: an entry may be the first reference to one of them, and
     * a thread of this node that reads that reference (even through a data race) must find the object as its
     * constructor left it, as final fields promise.
     */
    void serveWrites(long[] ids, int[] offsets, ObjectImage[] images) {
        receiver.keepPublished(ids, offsets, images); // first, so references to the objects published here resolve
        for (int k = 0; k < ids.length; k++) {
            if (offsets[k] == Publication.WHOLE) {
                store(ids[k], 0, images[k]);
            }
        }
        for (int k = 0; k < ids.length; k++) {
            if (offsets[k] != Publication.WHOLE) {
                store(ids[k], Math.max(0, offsets[k]), images[k]);
            }
        }
        VarHandle.fullFence();
    }

    private void store(long id, int offset, ObjectImage image) {
        if (id == 0) {
            Class<?> type = loadClass(image.className());
            ClassLayout layout = ClassLayout.statics(type);
            for (int i = 0; i < image.length(); i++) {
                if (image.kinds()[i] != ImageCodec.ABSENT) {
                    layout.handles[i].setVolatile(ImageCodec.decode(this, image, i, layout.fields[i].getType(),
                        "static field " + layout.fields[i]));
                }
            }
            return;
        }
        Object m = master(id);
        if (m.getClass().isArray()) {
            Class<?> component = m.getClass().getComponentType();
            for (int j = 0; j < image.length(); j++) {
                if (image.kinds()[j] != ImageCodec.ABSENT) {
                    int i = offset + j;
                    Array.set(m, i, ImageCodec.decode(this, image, j, component, "element " + i));
                }
            }
            return;
        }
        ClassLayout layout = ClassLayout.of(m.getClass());
        for (int i = 0; i < image.length(); i++) {
            if (image.kinds()[i] != ImageCodec.ABSENT) {
                layout.setVolatile(m, i, ImageCodec.decode(this, image, i, layout.typeOf(i),
                    "field " + layout.nameOf(i) + " of " + m.getClass().getName() + " " + ObjectIds.describe(id)));
            }
        }
    }

    /** The class of the master of {@code id} homed here, or null (for thread dumps). */
    String masterClassName(long id) {
        Object m = masters.get(id);
        return m == null ? null : m instanceof Class<?> c ? c.getName() + ".class" : m.getClass().getName();
    }

    private Object master(long id) {
        Object m = masters.get(id);
        if (m == null) {
            throw new IllegalStateException("node " + self + " is not the home of shared object "
                + ObjectIds.describe(id));
        }
        return m;
    }

    private static Class<?> declaringClass(Class<?> owner, String name) {
        for (Class<?> k = owner; k != null; k = k.getSuperclass()) {
            try {
                k.getDeclaredField(name);
                return k;
            } catch (NoSuchFieldException e) {
                // look further up
            }
        }
        throw new IllegalStateException("class " + owner.getName() + " has no static field " + name);
    }
}
