package dev.cumulus.agent.mains;

import dev.cumulus.agent.Refusals;
import dev.cumulus.internal.cloud.CloudHooks;

/** Run with -javaagent: a cloud class is woven, a violating one and a class touching a cloud's field from outside are refused (AgentProcessTest). */
public final class JavaagentMain {
    private JavaagentMain() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("agentInstalled=" + CloudHooks.agentInstalled());
        CloudHooks.install(new PrintingDispatcher());
        Object a = Class.forName("weave.Account").getConstructor().newInstance();
        System.out.println("addInt=" + a.getClass().getMethod("addInt", int.class).invoke(a, 5));
        System.out.println("readInt=" + a.getClass().getMethod("readInt").invoke(a));
        Object bin = Class.forName("weave.Bin").getConstructor().newInstance();
        bin.getClass().getMethod("put", int.class).invoke(bin, 3);
        try {
            Class.forName("weave.Refused");
            System.out.println("Refused initialized");
        } catch (ExceptionInInitializerError e) {
            System.out.println("refused: " + e.getCause().getClass().getName() + ": "
                + e.getCause().getMessage().lines().findFirst().orElse(""));
        }
        try {
            Class.forName("weave.Peeker");
            System.out.println("Peeker initialized");
        } catch (ExceptionInInitializerError e) {
            System.out.println("refused: " + e.getCause().getClass().getName() + ": "
                + e.getCause().getMessage().lines().findFirst().orElse(""));
        }
        System.out.println("refusals=" + Refusals.list().size());
    }
}
