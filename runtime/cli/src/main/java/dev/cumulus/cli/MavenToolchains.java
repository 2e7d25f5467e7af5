package dev.cumulus.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Registers a JDK in Maven's user toolchains file ({@code ~/.m2/toolchains.xml}), so that a generated project's
 * {@code mvn package} compiles and tests with JDK 25 whatever JDK runs Maven (the templates select a JDK 25 toolchain
 * with the maven-toolchains-plugin). Never rewrites what is there: a file that already offers a JDK of the wanted
 * version (or newer) is left alone; otherwise one {@code <toolchain>} is inserted before {@code </toolchains>}, the
 * rest of the file kept byte for byte; a file that is not a toolchains file is not touched.
 */
final class MavenToolchains {
    /** What {@link #register} did, in words for the user. */
    record Outcome(boolean changed, String message) {
    }

    private MavenToolchains() {
    }

    /** Maven's user toolchains file: {@code ~/.m2/toolchains.xml}. */
    static Path userFile() {
        return Path.of(System.getProperty("user.home"), ".m2", "toolchains.xml");
    }

    /** Makes sure {@code file} offers a JDK of at least {@code major}; adds {@code jdkHome} (version {@code major}) if not. */
    static Outcome register(Path file, Path jdkHome, int major) {
        String entry = """
              <!-- added by cumulus: the JDK %d it runs on, for projects that require JDK %d (maven-toolchains-plugin) -->
              <toolchain>
                <type>jdk</type>
                <provides>
                  <version>%d</version>
                </provides>
                <configuration>
                  <jdkHome>%s</jdkHome>
                </configuration>
              </toolchain>
            """.formatted(major, major, major, xmlText(jdkHome.toString()));
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(file.toAbsolutePath().getParent());
                write(file, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<toolchains>\n" + entry + "</toolchains>\n");
                return new Outcome(true, "Created " + file + " with the JDK " + major + " at " + jdkHome
                    + ": the project's mvn builds with it whatever JAVA_HOME says.");
            }
            String text = Files.readString(file, StandardCharsets.UTF_8);
            Document doc = parse(file);
            if (doc == null || !"toolchains".equals(doc.getDocumentElement().getTagName())) {
                return new Outcome(false, "Left " + file + " alone: it is not a Maven toolchains file. For mvn on "
                    + "another JDK than " + major + ", add a JDK " + major + " toolchain to it (jdkHome " + jdkHome
                    + "), or run mvn with JAVA_HOME=" + jdkHome + ".");
            }
            String offered = jdkOfAtLeast(doc, major);
            if (offered != null) {
                return new Outcome(false, file + " already offers a JDK " + offered + ".");
            }
            int end = text.lastIndexOf("</toolchains>");
            if (end < 0) {
                return new Outcome(false, "Left " + file + " alone: it has no </toolchains> end tag to add "
                    + "before; add a JDK " + major + " toolchain (jdkHome " + jdkHome + ") to it by hand.");
            }
            write(file, text.substring(0, end) + entry + text.substring(end));
            return new Outcome(true, "Added the JDK " + major + " at " + jdkHome + " to " + file
                + ": the project's mvn builds with it whatever JAVA_HOME says.");
        } catch (IOException e) {
            return new Outcome(false, "Could not register the JDK " + major + " in " + file + " (" + e.getMessage()
                + "); run mvn with JAVA_HOME=" + jdkHome + ".");
        }
    }

    /** The version of a JDK toolchain of at least {@code major} the file offers, or null. */
    private static String jdkOfAtLeast(Document doc, int major) {
        NodeList toolchains = doc.getDocumentElement().getElementsByTagName("toolchain");
        for (int i = 0; i < toolchains.getLength(); i++) {
            Element t = (Element) toolchains.item(i);
            if (!"jdk".equals(text(t, "type"))) {
                continue;
            }
            NodeList provides = t.getElementsByTagName("provides");
            String version = provides.getLength() == 0 ? null : text((Element) provides.item(0), "version");
            if (version != null && majorOf(version) >= major) {
                return version;
            }
        }
        return null;
    }

    /** The major version of "25", "25.0.1" or "1.8" (8); one that does not start with digits counts as 0. */
    static int majorOf(String version) {
        String v = version.trim().startsWith("1.") ? version.trim().substring(2) : version.trim();
        int i = 0;
        while (i < v.length() && Character.isDigit(v.charAt(i))) {
            i++;
        }
        return i == 0 || i > 4 ? 0 : Integer.parseInt(v.substring(0, i));
    }

    private static String text(Element parent, String child) {
        NodeList l = parent.getElementsByTagName(child);
        return l.getLength() == 0 ? null : l.item(0).getTextContent().trim();
    }

    private static Document parse(Path file) throws IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new DefaultHandler());           // a malformed file is an answer, not console noise
            try (InputStream in = Files.newInputStream(file)) {
                return b.parse(in);
            }
        } catch (SAXException | ParserConfigurationException e) {
            return null;
        }
    }

    private static void write(Path file, String text) throws IOException {
        Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), "toolchains", ".xml.tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String xmlText(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
