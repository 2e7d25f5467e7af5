package dev.cumulus.analysis;

import dev.cumulus.analysis.Classifier.Classification;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Builds the shared facts once per analyzer (the {@link ClassIndex} and the {@link Classifier}) and runs one
 * {@link RuleChecker} per rule over a class, in rule id order. Not thread-safe; {@link CloudAnalyzer} serializes
 * calls.
 */
final class Engine {
    static final Comparator<MethodClassification> CLASSIFICATION_ORDER = Comparator
            .comparing(MethodClassification::className).thenComparingInt(MethodClassification::line)
            .thenComparing(MethodClassification::methodName).thenComparing(MethodClassification::descriptor);

    private final ClassIndex index;
    private final Classifier classifier;
    private final List<RuleChecker> checkers;

    /** @param singleVm whether to run the single-VM rules (CUM2xx) too */
    Engine(ClassSource source, boolean singleVm) {
        this.index = new ClassIndex(source);
        this.classifier = new Classifier(index);
        SingleVmFacts svm = new SingleVmFacts(index);
        this.checkers = checkers(List.of(new RootAndNodeChecker(index), new RemoteCloudChecker(index),
                new RemoteReferenceChecker(index), new StaticStateChecker(index), new CloudReferenceChecker(index),
                new OutsideAccessChecker(index), new WellBehavedCallChecker(index), new TransferableChecker(index),
                new CloudValueChecker(index), new ReadNamedWriteChecker(index, classifier),
                new ThreadEscapeChecker(index, svm), new NativeMethodChecker(svm), new ThreadPoolChecker(index, svm),
                new MutableEnumChecker(index, svm), new InterfaceStateChecker(index, svm),
                new JdkLockChecker(index, svm), new FieldHandleChecker(index, svm)))
                .stream().filter(k -> singleVm || !k.rule().singleVm()).toList();
    }

    /** The checkers, checked to be one per rule of the catalogue, in its order (which {@code yieldsTo} relies on). */
    static List<RuleChecker> checkers(List<RuleChecker> checkers) {
        List<Rule> rules = checkers.stream().map(RuleChecker::rule).toList();
        if (!rules.equals(Rules.all())) {
            throw new IllegalStateException("checkers " + rules.stream().map(Rule::id).toList()
                    + " do not match the rule catalogue " + Rules.all().stream().map(Rule::id).toList());
        }
        for (RuleChecker k : checkers) {
            for (Rule r : k.yieldsTo()) {
                if (rules.indexOf(r) >= rules.indexOf(k.rule())) {
                    throw new IllegalStateException(k.rule().id() + " yields to " + r.id() + ", which runs later");
                }
            }
        }
        return List.copyOf(checkers);
    }

    List<String> allNames() {
        return index.allNames();
    }

    Optional<ClassInfo> info(String name) {
        return index.info(name);
    }

    Optional<UnreadableInput> unreadable(String name) {
        return index.unreadable(name);
    }

    /** Adds the findings located in class {@code c}, and the classifications of its methods if it is a cloud class. */
    void check(ClassInfo c, List<Finding> out, List<MethodClassification> classes) {
        if (index.isCloud(c.name)) {
            for (MethodInfo m : c.methods) {
                if (Classifier.isReported(m)) {
                    Classification k = classifier.classify(m);
                    classes.add(new MethodClassification(c.name, m.name, m.desc, c.sourceFile, m.reportLine(),
                            k.access(), k.chain()));
                }
            }
        }
        List<Finding> found = new ArrayList<>();
        for (RuleChecker k : checkers) {
            int from = found.size();
            k.check(c, found);
            if (!k.yieldsTo().isEmpty()) {
                List<Finding> own = new ArrayList<>(found.subList(from, found.size()));
                found.subList(from, found.size()).clear();
                own.stream().filter(f -> !superseded(f, k, found)).forEach(found::add);
            }
        }
        out.addAll(found);
    }

    /** Whether {@code found} holds a finding of a rule {@code k} yields to, on the same member as {@code f}. */
    private static boolean superseded(Finding f, RuleChecker k, List<Finding> found) {
        return f.memberName() != null && found.stream().anyMatch(g -> g.memberName() != null
                && g.className().equals(f.className()) && g.memberName().equals(f.memberName())
                && g.memberDescriptor().equals(f.memberDescriptor())
                && k.yieldsTo().stream().anyMatch(r -> r.id().equals(g.ruleId())));
    }
}
