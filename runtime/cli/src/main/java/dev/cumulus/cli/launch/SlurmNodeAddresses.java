package dev.cumulus.cli.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The addresses of a Slurm step's hosts, for their nodes' UDP endpoints: what Slurm itself uses to reach each one
 * (its {@code NodeAddr}, from {@code scontrol show node}), else what the host name resolves to. A loopback address
 * would send a peer's datagrams to itself, so it is refused when the step spans several hosts.
 */
final class SlurmNodeAddresses {
    private static final long SCONTROL_WAIT_S = 30;

    private SlurmNodeAddresses() {
    }

    /**
     * One address per host, in order.
     *
     * @throws LaunchException naming the host whose address cannot be found or is useless
     */
    static List<String> of(List<String> hosts) {
        Map<String, String> slurm = nodeAddrs();
        List<String> addresses = new ArrayList<>();
        for (String host : hosts) {
            String name = slurm.getOrDefault(host, host);
            InetAddress address;
            try {
                address = InetAddress.getByName(name);
            } catch (UnknownHostException e) {
                throw new LaunchException("cannot find the address of Slurm node " + host + " (" + name + " does not "
                    + "resolve, and 'scontrol show node' did not give one); give the node a NodeAddr in slurm.conf or "
                    + "a name the hosts resolve");
            }
            if (address.isLoopbackAddress() && hosts.size() > 1) {
                throw new LaunchException("Slurm node " + host + " resolves to the loopback address "
                    + address.getHostAddress() + ", which the other hosts cannot reach; give it a NodeAddr in "
                    + "slurm.conf or fix its entry in /etc/hosts or DNS");
            }
            addresses.add(HostAgent.endpointHost(address.getHostAddress()));
        }
        return addresses;
    }

    /** {@code NodeName -> NodeAddr} of every node Slurm knows, or an empty map when scontrol cannot tell. */
    private static Map<String, String> nodeAddrs() {
        Map<String, String> map = new HashMap<>();
        String text;
        try {
            Process p = new ProcessBuilder("scontrol", "--oneliner", "show", "node").redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(SCONTROL_WAIT_S, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return map;
            }
            text = new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return map; // no scontrol on this host: names resolve as they are
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return map;
        }
        return parse(text);
    }

    /** Reads {@code scontrol --oneliner show node}: a node a line, {@code NodeName=... NodeAddr=...} among its fields. */
    static Map<String, String> parse(String text) {
        Map<String, String> map = new HashMap<>();
        for (String line : text.split("\n")) {
            String name = null;
            String addr = null;
            for (String field : line.trim().split("\\s+")) {
                if (field.startsWith("NodeName=")) {
                    name = field.substring("NodeName=".length());
                } else if (field.startsWith("NodeAddr=")) {
                    addr = field.substring("NodeAddr=".length());
                }
            }
            if (name != null && addr != null && !addr.isEmpty()) {
                map.put(name, addr);
            }
        }
        return map;
    }
}
