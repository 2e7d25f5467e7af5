package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a node says when it meets another node's JDK object: a mutable JDK object, or a lambda the JDK made. */
@Timeout(10)
class NodeLocalObjectTest {
    @Test
    void aMutableJdkObjectIsNamedByItsClassAndNodes() {
        String text = NodeLocalObject.describe(new AtomicInteger());
        assertEquals("java.util.concurrent.atomic.AtomicInteger", text);
        String message = NodeLocalObject.reached("field a.Counter.count of shared a.Counter #3@node0", text, 0, 1);
        assertEquals("field a.Counter.count of shared a.Counter #3@node0 refers to a "
            + "java.util.concurrent.atomic.AtomicInteger created on node 0, which node 1 cannot use: mutable JDK "
            + "objects cannot be shared between nodes in the single-VM mode (use it only on the node that created it, "
            + "or keep the data in the program's own classes or arrays)", message);
    }

    @Test
    void aLambdaIsNamedByItsInterfaceAndTheClassThatMadeIt() {
        Comparator<String> byLength = (a, b) -> Integer.compare(a.length(), b.length());
        String message = NodeLocalObject.reached("field a.Holder.order", NodeLocalObject.describe(byLength), 0, 1);
        assertEquals("field a.Holder.order refers to a lambda or method reference implementing java.util.Comparator, "
            + "made in dev.cumulus.internal.singlevm.NodeLocalObjectTest on node 0, which node 1 cannot use: only "
            + "Runnable and Callable lambdas can move between nodes in the single-VM mode (use a named class "
            + "implementing java.util.Comparator instead: it is shared like any program object)", message);
        assertFalse(message.contains("$$Lambda"), message);
    }

    @Test
    void aMethodReferenceWithSeveralInterfacesNamesThemAll() {
        IntSupplier size = (IntSupplier & java.io.Serializable) "abc"::length;
        String message = NodeLocalObject.reached("element 0", NodeLocalObject.describe(size), 2, 0);
        assertTrue(message.contains("implementing java.util.function.IntSupplier and java.io.Serializable, made in "
            + "dev.cumulus.internal.singlevm.NodeLocalObjectTest on node 2, which node 0 cannot use"), message);
    }

    @Test
    void theProgramsCatchOfExceptionsDoesNotTakeALimitForItsOwnFailure() {
        assertFalse(Exception.class.isAssignableFrom(SingleVmLimitError.class));
        assertTrue(Error.class.isAssignableFrom(SingleVmLimitError.class));
    }
}
