package dev.cumulus.analysis;

/**
 * One entry of the rule catalogue ({@link Rules}).
 *
 * @param id          stable id, e.g. {@code CUM104}; never reused for another meaning
 * @param title       short title, e.g. "no mutable static state"
 * @param severity    the severity findings of this rule carry
 * @param description a paragraph saying what the rule checks and why (Manta §2.2, §3.1, §4.6)
 * @param fixHint     one line saying what to do, appended to compiler-style output
 */
public record Rule(String id, String title, Severity severity, String description, String fixHint) {

    /**
     * True for the rules of the single-VM mode ({@code CUM2xx}, {@code cumulus check --single-vm}), which an analyzer
     * checks only when made for that mode.
     */
    public boolean singleVm() {
        return id.startsWith("CUM2");
    }

    /** Repository-relative path of the rule's documentation page, {@code docs/rules/CUM104.md}. */
    public String docPath() {
        return "docs/rules/" + id + ".md";
    }
}
