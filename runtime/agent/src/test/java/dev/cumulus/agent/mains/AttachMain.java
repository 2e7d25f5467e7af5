package dev.cumulus.agent.mains;

import dev.cumulus.internal.cloud.CloudHooks;
import dev.cumulus.internal.cloud.AgentLoader;
import java.lang.reflect.Method;

/**
 * Run without -javaagent: loads cloud classes, then attaches the agent with AgentLoader, which retransforms them
 * (AgentProcessTest). Prints the attach time.
 */
public final class AttachMain {
    private AttachMain() {
    }

    public static void main(String[] args) throws Exception {
        CloudHooks.install(new PrintingDispatcher());
        Object a = Class.forName("weave.Account").getConstructor().newInstance();
        Method add = a.getClass().getMethod("addInt", int.class);
        System.out.println("before attach addInt=" + add.invoke(a, 1));
        Object refused = Class.forName("weave.Refused").getConstructor().newInstance();
        refused.getClass().getMethod("bump").invoke(refused);
        long t0 = System.nanoTime();
        AgentLoader.ensureInstalled();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("attached agentInstalled=" + CloudHooks.agentInstalled() + " ms=" + ms);
        System.out.println("after attach addInt=" + add.invoke(a, 2));
        Object late = Class.forName("weave.Late").getConstructor().newInstance();
        System.out.println("late inc=" + late.getClass().getMethod("inc").invoke(late));
        long t1 = System.nanoTime();
        AgentLoader.ensureInstalled();
        System.out.println("second ensureInstalled us=" + (System.nanoTime() - t1) / 1000);
    }
}
