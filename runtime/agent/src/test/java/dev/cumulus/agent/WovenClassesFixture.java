package dev.cumulus.agent;

import dev.cumulus.internal.cloud.CloudHooks;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test cloud classes (src/test/cloud) compiled once per test class and loaded through the transformer into a
 * fresh class loader, with a recording dispatcher installed around every test.
 */
abstract class WovenClassesFixture {
    @TempDir
    static Path classes;
    static TestClasses.Captured agentErr = new TestClasses.Captured();
    static TestClasses.WeavingLoader loader;

    final WeaverTest.Recording rec = new WeaverTest.Recording();

    @BeforeAll
    static void compileAndLoad() throws Exception {
        TestClasses.compile(classes);
        loader = new TestClasses.WeavingLoader(classes, new CloudTransformer(agentErr.stream, AgentSettings.NONE));
    }

    @BeforeEach
    void install() {
        CloudHooks.install(rec);
    }

    @AfterEach
    void uninstall() {
        CloudHooks.install(null);
    }
}
