package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The engine: one finding per member about its declared type (yieldsTo), and one checker per rule, in id order. */
@Timeout(60)
class EngineTest {
    @TempDir
    Path tmp;

    @Test
    void aMemberGetsOnlyTheMostSpecificFindingAboutItsType() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import java.util.Map;
                class Ledger implements dev.cumulus.Cloud.Root { }
                class Books implements dev.cumulus.Cloud.Root {
                    Map<Ledger, StringBuilder> ledgers;
                    public void take(java.rmi.Remote r) { }
                }
                """)) {
            // on their own, CUM109 and CUM108 report these members too
            assertEquals(1, fx.check(CloudValueChecker::new, "Books").size());
            assertEquals(1, fx.check(TransferableChecker::new, "Books").size());

            try (ClassSource source = ClassSource.classpath(List.of(tmp.resolve("classes")))) {
                Engine engine = new Engine(source, false);
                List<Finding> out = new ArrayList<>();
                engine.check(engine.info("t/Books").orElseThrow(), out, new ArrayList<>());
                assertEquals(List.of("CUM103 take", "CUM105 ledgers"),
                        out.stream().map(f -> f.ruleId() + " " + f.memberName()).sorted().toList());
            }
        }
    }

    @Test
    void checkersMustBeOnePerRuleInIdOrder() {
        ClassIndex index = new ClassIndex(ClassSource.ofBytes(Map.of()));
        SingleVmFacts svm = new SingleVmFacts(index);
        List<RuleChecker> all = List.of(new RootAndNodeChecker(index), new RemoteCloudChecker(index),
                new RemoteReferenceChecker(index), new StaticStateChecker(index), new CloudReferenceChecker(index),
                new OutsideAccessChecker(index), new WellBehavedCallChecker(index), new TransferableChecker(index),
                new CloudValueChecker(index), new ReadNamedWriteChecker(index, new Classifier(index)),
                new ThreadEscapeChecker(index, svm), new NativeMethodChecker(svm), new ThreadPoolChecker(index, svm),
                new MutableEnumChecker(index, svm), new InterfaceStateChecker(index, svm),
                new JdkLockChecker(index, svm), new FieldHandleChecker(index, svm));
        assertEquals(Rules.all(), Engine.checkers(all).stream().map(RuleChecker::rule).toList());
        assertThrows(IllegalStateException.class, () -> Engine.checkers(all.subList(1, all.size())));
        List<RuleChecker> swapped = new ArrayList<>(all);
        swapped.set(2, all.get(8));
        swapped.set(8, all.get(2));
        assertThrows(IllegalStateException.class, () -> Engine.checkers(swapped));

        List<RuleChecker> yieldsToLater = new ArrayList<>(all);
        yieldsToLater.set(0, new RuleChecker() {
            @Override
            public Rule rule() {
                return Rules.CUM101;
            }

            @Override
            public Set<Rule> yieldsTo() {
                return Set.of(Rules.CUM103);
            }

            @Override
            public void check(ClassInfo c, List<Finding> out) {
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Engine.checkers(yieldsToLater));
        assertEquals("CUM101 yields to CUM103, which runs later", e.getMessage());
    }
}
