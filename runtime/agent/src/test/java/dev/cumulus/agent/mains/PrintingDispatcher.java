package dev.cumulus.agent.mains;

import dev.cumulus.internal.cloud.CloudDispatcher;
import dev.cumulus.internal.cloud.CloudHooks;
import dev.cumulus.internal.cloud.RestartAsWrite;
import java.util.Arrays;

/** Prints every hook call on stdout and lets the original code run. */
final class PrintingDispatcher implements CloudDispatcher {
    @Override
    public Object beforeWrite(Object self, String methodKey, Object[] args) {
        System.out.println("beforeWrite " + methodKey + " " + Arrays.toString(args));
        return CloudHooks.PROCEED;
    }

    @Override
    public Object restartAsWrite(Object self, String methodKey, Object[] args, RestartAsWrite signal) {
        System.out.println("restartAsWrite " + methodKey + " " + Arrays.toString(args));
        throw signal;
    }

    @Override
    public void await(Object monitor, long millis, int nanos) throws InterruptedException {
        System.out.println("await " + millis + " " + nanos);
    }

    @Override
    public void notify(Object monitor, boolean all) {
        System.out.println(all ? "notifyAll" : "notify");
    }
}
