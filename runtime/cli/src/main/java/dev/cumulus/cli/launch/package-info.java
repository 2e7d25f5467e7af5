/**
 * The machinery of {@code cumulus run}: {@link dev.cumulus.cli.launch.ClusterLauncher} starts one shared media driver
 * ({@code DriverHost}, in {@code /dev/shm/cumulus-<runId>}) and N node JVMs ({@code NodeProcess}) with the launch
 * contract ({@code LaunchConfig}) as {@code -Dcumulus.*} properties, copies their output line by line with {@code [i] }
 * prefixes ({@code OutputPump}), and ends the run: all nodes exit 0, a node fails on its own (the run names the node
 * where the failure began, from the nodes' failure reports: {@code FailureOrigin}), the timeout passes, or the
 * launcher is stopped. {@code RunDirectory} holds what a run leaves behind ({@code launch.properties},
 * {@code result.properties}, the nodes' failure reports, the JFR recordings); {@code DriverDirectories} records the
 * launcher in its driver directory and removes those of launchers that are gone.
 *
 * <p>Over several hosts ({@code --hosts}, {@code HostsFile}): every other host gets a {@code HostAgent} for the run,
 * started and spoken to through ssh ({@code Ssh}, {@code RemoteHost}) once a shell check found a Java 25 there
 * ({@code HostJava}): it hosts that host's driver and run directory, takes the program's classes into the host's class
 * cache ({@code ClassShipping}, {@code dev.cumulus.cli.ship}), sends failure reports and recordings back, and cleans
 * the host up when its stdin ends. The nodes there run with the runtime at the launcher's paths (installed on every
 * host) and the program's classpath from the cache. Each node there is an ssh
 * session of its own ({@code NodeProcess} with a host), asked to stop by a line on its stdin. {@code HostGroup} offers
 * the same hosts, agents and ssh sessions to a program that starts processes of its own: {@code cumulus bench --hosts}.
 *
 * <p>Inside a Slurm allocation without {@code --hosts} ({@code SlurmAllocation}, {@code SlurmLaunch}) the same
 * happens with srun in place of ssh ({@code Srun}; both are a {@code HostReach}): the allocation's hosts and tasks are
 * the hosts and slots, each agent and each node a job step. {@code cumulus node} ({@code SlurmNode}) is a node that
 * srun started without a launcher: it reads its step ({@code SlurmStep}, {@code SlurmHostlist}) and its hosts'
 * addresses ({@code SlurmNodeAddresses}), and runs the node's JVM.
 *
 * <p>Threads: the caller's thread runs the run and waits on a queue fed by process-exit callbacks; two daemon pump
 * threads per node, one per host agent's stderr; the JVM shutdown hook (Ctrl-C, SIGTERM) stops the nodes. Stopping and clean-up are serialised on
 * one lock and idempotent.
 *
 * <p>Never: leaves a node process or the driver directory behind (on every ending, also on exceptions and on
 * shutdown); starts anything before the options and the main class are checked; runs the user's code in the launcher
 * (the main class is loaded without initialising it); sleeps to wait (it waits on process exits with deadlines);
 * imports {@code io.aeron}.
 */
package dev.cumulus.cli.launch;
