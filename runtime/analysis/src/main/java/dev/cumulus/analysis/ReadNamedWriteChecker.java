package dev.cumulus.analysis;

import dev.cumulus.analysis.Classifier.Classification;
import dev.cumulus.analysis.Classifier.WriteSite;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import java.util.List;

/**
 * CUM120 (warning): a cloud method named like a read ({@link Catalog#looksLikeRead}) that the classifier finds to be a
 * write, so every call is broadcast. The finding names the write the reason chain ends in.
 */
final class ReadNamedWriteChecker implements RuleChecker {
    private final ClassIndex index;
    private final Classifier classifier;

    ReadNamedWriteChecker(ClassIndex index, Classifier classifier) {
        this.index = index;
        this.classifier = classifier;
    }

    @Override
    public Rule rule() {
        return Rules.CUM120;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!index.isCloud(c.name)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            if (!Classifier.isReported(m) || !Catalog.looksLikeRead(m.name)) {
                continue;
            }
            Classification k = classifier.classify(m);
            if (k.access() == Access.WRITE) {
                WriteSite s = k.site();
                out.add(onMethod(c, m, m.reportLine(), "method '" + m.name + "' looks like a read but is a write ("
                        + String.join(" -> ", k.chain()) + "), so every call is broadcast to all replicas",
                        List.of(new RelatedLocation(s.className(), s.memberName(), s.sourceFile(), s.line(),
                                "the write: " + s.text()))));
            }
        }
    }
}
