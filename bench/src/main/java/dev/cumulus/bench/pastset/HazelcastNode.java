package dev.cumulus.bench.pastset;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.QueueConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.collection.IQueue;
import dev.cumulus.bench.ChildIo;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One Hazelcast member of the pastset suite (the peer): a full member ({@code Hazelcast.newHazelcastInstance}) per
 * process, TCP-IP join on 127.0.0.1 only (multicast and auto-detection off), phone-home off, logging at WARNING,
 * a cluster name unique per run. Channels are {@link IQueue}s with no backups (like our unreplicated elements),
 * named {@code base@key} with a partition key whose partition the intended home member owns; the bandwidth queues
 * ({@code bw.*}) have capacity {@code window} (a blocking {@code put} is the flow control). {@code put} =
 * {@code IQueue.put}, {@code take} = {@code IQueue.take}.
 *
 * <p>Started through {@link HazelcastLauncher}, which loads this class and Hazelcast from the pinned jar.
 *
 * <pre>HazelcastNode INDEX MEMBERS PORT,PORT,... CLUSTER-NAME</pre>
 */
public final class HazelcastNode {
    private static final Logger HZ_LOG = Logger.getLogger("com.hazelcast");

    private HazelcastNode() {
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        int me = Integer.parseInt(args[0]);
        int n = Integer.parseInt(args[1]);
        String[] ports = args[2].split(",");
        String clusterName = args[3];
        Scenarios.Settings settings = Scenarios.Settings.current();
        HZ_LOG.setLevel(Level.WARNING);

        Config c = new Config();
        c.setClusterName(clusterName);
        c.setClassLoader(HazelcastNode.class.getClassLoader());
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.logging.type", "jdk");
        c.setProperty("hazelcast.health.monitoring.level", "OFF");
        c.setProperty("hazelcast.socket.bind.any", "false");
        c.setProperty("hazelcast.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.max.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.initial.min.cluster.size", Integer.toString(n));
        c.getMemberAttributeConfig().setAttribute("bench.index", Integer.toString(me));
        NetworkConfig net = c.getNetworkConfig();
        net.setPort(Integer.parseInt(ports[me])).setPortAutoIncrement(false);
        net.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = net.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        List<String> members = new ArrayList<>();
        for (String p : ports) {
            members.add("127.0.0.1:" + p);
        }
        join.getTcpIpConfig().setEnabled(true).setMembers(members);
        c.addQueueConfig(new QueueConfig("default").setBackupCount(0).setAsyncBackupCount(0));
        c.addQueueConfig(new QueueConfig("bw.*").setBackupCount(0).setAsyncBackupCount(0)
            .setMaxSize(settings.window()));

        HazelcastInstance hz = Hazelcast.newHazelcastInstance(c);
        try {
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (hz.getCluster().getMembers().size() < n || !hz.getPartitionService().isClusterSafe()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the Hazelcast cluster did not form: "
                        + hz.getCluster().getMembers());
                }
                Thread.sleep(50);
            }
            QueueSpace qs = new QueueSpace(hz, me, n);
            qs.barrier();
            new Scenarios(qs, settings).runAll(null);
        } finally {
            hz.getLifecycleService().terminate();
        }
        System.exit(0);
    }

    /** Hazelcast queues as {@link Scenarios.Chan}nels. */
    static final class QueueSpace implements Scenarios.Space {
        private final HazelcastInstance hz;
        private final int me;
        private final int n;
        private final Member[] byIndex;
        private int generation;

        QueueSpace(HazelcastInstance hz, int me, int n) {
            this.hz = hz;
            this.me = me;
            this.n = n;
            this.byIndex = new Member[n];
            for (Member m : hz.getCluster().getMembers()) {
                byIndex[Integer.parseInt(m.getAttribute("bench.index"))] = m;
            }
        }

        @Override
        public int me() {
            return me;
        }

        @Override
        public int size() {
            return n;
        }

        /** A name whose partition (hence the queue) the member of {@code index} owns. */
        String homed(String base, int index) {
            for (int k = 0; k < 100_000; k++) {
                String key = "k" + k;
                if (byIndex[index].equals(hz.getPartitionService().getPartition(key).getOwner())) {
                    return base + "@" + key;
                }
            }
            throw new IllegalStateException("no partition owned by member " + index);
        }

        @Override
        public Scenarios.Chan[] open(String[] names, int[] homes, boolean bounded) {
            Scenarios.Chan[] c = new Scenarios.Chan[names.length];
            for (int i = 0; i < names.length; i++) {
                IQueue<byte[]> q = hz.getQueue(homed(names[i], homes[i]));
                c[i] = new Scenarios.Chan() {
                    @Override
                    public void put(byte[] b) {
                        try {
                            q.put(b);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(e);
                        }
                    }

                    @Override
                    public byte[] take() {
                        try {
                            return q.take();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(e);
                        }
                    }
                };
            }
            barrier();
            return c;
        }

        /** Everybody puts into member 0's up-queue; member 0 answers on each member's down-queue. */
        @Override
        public void barrier() {
            int g = generation++;
            try {
                if (me == 0) {
                    IQueue<Integer> up = hz.getQueue(homed("barrier.up", 0));
                    for (int i = 1; i < n; i++) {
                        up.take();
                    }
                    for (int i = 1; i < n; i++) {
                        hz.<Integer>getQueue(homed("barrier.down." + i, i)).put(g);
                    }
                } else {
                    hz.<Integer>getQueue(homed("barrier.up", 0)).put(g);
                    int got = hz.<Integer>getQueue(homed("barrier.down." + me, me)).take();
                    if (got != g) {
                        throw new IllegalStateException("barrier " + g + " answered by " + got);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
