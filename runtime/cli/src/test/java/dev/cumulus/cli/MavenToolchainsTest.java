package dev.cumulus.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Registering the JDK in a Maven toolchains file: created, added to, or left alone; never clobbered. */
@Timeout(30)
class MavenToolchainsTest {
    private static final Path JDK = Path.of("/opt/jdk-25 & co");

    @TempDir
    Path tmp;

    @Test
    void aMissingFileIsCreatedWithTheJdk() throws Exception {
        Path file = tmp.resolve("m2/toolchains.xml");
        MavenToolchains.Outcome o = MavenToolchains.register(file, JDK, 25);
        assertTrue(o.changed());
        assertTrue(o.message().startsWith("Created " + file + " with the JDK 25 at " + JDK), o.message());
        String xml = Files.readString(file);
        assertTrue(xml.contains("<version>25</version>") && xml.contains("<jdkHome>/opt/jdk-25 &amp; co</jdkHome>"), xml);
        MavenToolchains.Outcome again = MavenToolchains.register(file, JDK, 25);
        assertFalse(again.changed());
        assertEquals(file + " already offers a JDK 25.", again.message());
        assertEquals(xml, Files.readString(file), "registered once");
    }

    @Test
    void otherEntriesAreKeptByteForByteAndTheJdkIsAdded() throws Exception {
        Path file = tmp.resolve("toolchains.xml");
        String mine = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- my JDKs -->
            <toolchains xmlns="http://maven.apache.org/TOOLCHAINS/1.1.0">
              <toolchain><type>jdk</type><provides><version>17</version><vendor>x</vendor></provides>
                <configuration><jdkHome>/usr/lib/jvm/java-17</jdkHome></configuration></toolchain>
              <toolchain><type>netbeans</type><provides><version>25</version></provides></toolchain>
            </toolchains>
            """;
        Files.writeString(file, mine);
        MavenToolchains.Outcome o = MavenToolchains.register(file, JDK, 25);
        assertTrue(o.changed(), o.message());
        String now = Files.readString(file);
        int end = mine.lastIndexOf("</toolchains>");
        assertTrue(now.startsWith(mine.substring(0, end)) && now.endsWith(mine.substring(end)), now);
        assertTrue(now.substring(end).contains("<version>25</version>"), now);
        assertFalse(MavenToolchains.register(file, JDK, 25).changed(), "the added entry counts next time");
    }

    @Test
    void aNewerJdkAlreadyThereIsEnough() throws Exception {
        Path file = tmp.resolve("toolchains.xml");
        String mine = "<toolchains><toolchain><type>jdk</type><provides><version>26.0.1</version></provides>"
            + "<configuration><jdkHome>/j26</jdkHome></configuration></toolchain></toolchains>";
        Files.writeString(file, mine);
        MavenToolchains.Outcome o = MavenToolchains.register(file, JDK, 25);
        assertFalse(o.changed());
        assertEquals(mine, Files.readString(file));
    }

    @Test
    void aFileThatIsNoToolchainsFileIsNotTouched() throws Exception {
        for (String text : new String[] {"<settings><x/></settings>", "<toolchains><toolchain>", "not xml at all"}) {
            Path file = tmp.resolve("toolchains.xml");
            Files.writeString(file, text);
            MavenToolchains.Outcome o = MavenToolchains.register(file, JDK, 25);
            assertFalse(o.changed(), text);
            assertTrue(o.message().startsWith("Left " + file + " alone") && o.message().contains("JAVA_HOME=" + JDK),
                o.message());
            assertEquals(text, Files.readString(file));
        }
    }

    @Test
    void majorVersions() {
        assertEquals(25, MavenToolchains.majorOf("25"));
        assertEquals(25, MavenToolchains.majorOf("25.0.1"));
        assertEquals(8, MavenToolchains.majorOf("1.8"));
        assertEquals(0, MavenToolchains.majorOf("[25,)"));
    }
}
