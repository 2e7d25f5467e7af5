package dev.cumulus.agent;

import com.sun.tools.attach.VirtualMachine;

/**
 * Helper main for attaching the agent to another JVM, used by {@code AgentLoader} when the JVM may not attach to
 * itself: {@code java -cp cumulus-agent.jar dev.cumulus.agent.Attacher PID AGENT_JAR}. Exit code 0 when the agent's
 * {@code agentmain} returned, 1 with a one-line reason on stderr otherwise, 2 for bad usage.
 */
public final class Attacher {
    private Attacher() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: java -cp cumulus-agent.jar dev.cumulus.agent.Attacher PID AGENT_JAR");
            System.exit(2);
        }
        try {
            VirtualMachine vm = VirtualMachine.attach(args[0]);
            try {
                vm.loadAgent(args[1]);
            } finally {
                vm.detach();
            }
        } catch (Exception e) {
            System.err.println("cannot load " + args[1] + " into JVM " + args[0] + ": " + e);
            System.exit(1);
        }
    }
}
