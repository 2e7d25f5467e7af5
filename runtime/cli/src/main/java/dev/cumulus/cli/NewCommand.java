package dev.cumulus.cli;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.ToNumberPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/**
 * {@code cumulus new TEMPLATE DIR}: scaffolds a Maven project from one of the repository's {@code templates/}.
 *
 * <p>A template is a folder with a {@code template.json} manifest and the files it names:
 * <pre>{@code
 * { "name": "replicated", "description": "...",
 *   "variables": [ { "name": "package", "description": "...", "default": "org.example.app",
 *                    "pattern": "[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*", "message": "a Java package name" } ],
 *   "files": [ { "from": "src/Main.java", "to": "src/main/java/{{packagePath}}/Main.java" } ],
 *   "run": { "mainClass": "{{package}}.Main", "nodes": 3, "expect": "a line the run prints" } }
 * }</pre>
 * {@code {{name}}} in file contents and target paths is replaced by the variable's value; names that are not
 * variables are left alone. Besides the manifest's variables there are derived ones: {@code packagePath}
 * ({@code package} with '/'), {@code groupId} (the package), {@code template}, {@code description} and
 * {@code cumulusHome} (the toolkit's root, for the README's run command). Every value must match its variable's
 * pattern as a whole; an error names the variable, the value and the rule. DIR must be absent or empty.
 *
 * <p>The templates folder is {@code --templates DIR}, else {@code templates/} in the repository that holds the CLI
 * (found from the CLI's jar or class directory: {@code runtime/cli/target/...} → the repository root).
 */
@Command(name = "new",
    mixinStandardHelpOptions = true,
    description = {
        "Create a new Cumulus project (a Maven project) in DIR from a template.",
        "'cumulus new --list' lists the templates; each generated project's README has its run command."})
final class NewCommand implements Callable<Integer> {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z][A-Za-z0-9_]*)}}");
    /** Template manifests and {@code --list --json}: numbers read as Long or Double, strings written as they are. */
    private static final Gson JSON = new GsonBuilder().setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
        .disableHtmlEscaping().create();

    @ParentCommand
    CumulusCli cli;

    @Parameters(index = "0", arity = "0..1", paramLabel = "TEMPLATE", description = "Template name (see --list).")
    String template;

    @Parameters(index = "1", arity = "0..1", paramLabel = "DIR", description = "Directory to create; must be absent or empty.")
    Path dir;

    @Option(names = "--package", paramLabel = "PACKAGE", description = "Java package of the generated classes (the 'package' variable).")
    String packageName;

    @Option(names = "--var", paramLabel = "NAME=VALUE", description = "Set a template variable; repeatable.")
    Map<String, String> vars = new LinkedHashMap<>();

    @Option(names = "--templates", paramLabel = "DIR", description = "Templates folder (default: templates/ of the Cumulus installation).")
    Path templatesDir;

    @Option(names = "--toolchains", paramLabel = "FILE", description = "Maven toolchains file in which the JDK this "
        + "command runs on is registered when it offers no JDK 25 yet (default: ~/.m2/toolchains.xml).")
    Path toolchains;

    @Option(names = "--list", description = "List the templates and their variables.")
    boolean list;

    @Option(names = "--json", description = "With --list: print the templates as JSON (for the editor).")
    boolean json;

    @Override
    public Integer call() throws IOException {
        PrintStream out = cli.out();
        Path root = templatesDir != null ? templatesDir.toAbsolutePath().normalize() : defaultTemplatesDir();
        if (root == null || !Files.isDirectory(root)) {
            return usage(root == null
                ? "cannot find the templates folder next to the Cumulus installation; pass --templates DIR"
                : "no templates folder " + root);
        }
        List<Template> templates;
        try {
            templates = Template.loadAll(root);
        } catch (TemplateException e) {
            cli.err().println("cumulus new: " + e.getMessage());
            return CumulusCli.EXIT_ERROR;
        }
        if (list) {
            if (json) {
                out.println(JSON.toJson(templates.stream().map(Template::describe).toList()));
            } else {
                for (Template t : templates) {
                    out.printf("%-12s %s%n", t.name, t.description);
                    for (Variable v : t.variables) {
                        out.printf("    %-12s %s (default %s)%n", v.name, v.description, v.defaultValue);
                    }
                }
            }
            return 0;
        }
        if (template == null || dir == null) {
            return usage("TEMPLATE and DIR are required (templates: " + names(templates) + ")");
        }
        Template t = templates.stream().filter(x -> x.name.equals(template)).findFirst().orElse(null);
        if (t == null) {
            return usage("no template '" + template + "' (templates: " + names(templates) + ")");
        }
        Path target = dir.toAbsolutePath().normalize();
        if (Files.exists(target)) {
            if (!Files.isDirectory(target)) {
                return usage(dir + " exists and is not a directory");
            }
            try (Stream<Path> entries = Files.list(target)) {
                if (entries.findAny().isPresent()) {
                    return usage(dir + " is not empty; choose a new or empty directory");
                }
            }
        }

        Map<String, String> given = new LinkedHashMap<>(vars);
        if (packageName != null) {
            given.put("package", packageName);
        }
        Map<String, String> values;
        try {
            values = t.resolve(given, target, cumulusHome(root));
        } catch (TemplateException e) {
            return usage(e.getMessage());
        }
        List<Path> written;
        try {
            written = t.render(values, target);
        } catch (TemplateException e) {
            cli.err().println("cumulus new: " + e.getMessage());
            return CumulusCli.EXIT_ERROR;
        }
        out.println("Created " + dir + " from template '" + t.name + "' (" + written.size() + " files).");
        if (Files.isRegularFile(target.resolve("pom.xml"))) {
            // the project's pom selects a JDK 25 toolchain: make sure Maven can find one, whatever JAVA_HOME says
            out.println(MavenToolchains.register(toolchains != null ? toolchains : MavenToolchains.userFile(),
                Path.of(System.getProperty("java.home")), Runtime.version().feature()).message());
        }
        if (t.mainClass != null) {
            out.println("Next: cd " + dir + " && mvn -q package && " + values.get("cumulusHome") + File.separator
                + "cumulus run --nodes " + values.getOrDefault("nodes", "3") + " -cp target/classes "
                + render(t.mainClass, values));
        }
        return 0;
    }

    private int usage(String message) {
        cli.err().println("cumulus new: " + message);
        return CumulusCli.EXIT_USAGE;
    }

    private static String names(List<Template> templates) {
        return String.join(", ", templates.stream().map(x -> x.name).toList());
    }

    /** {@code templates/} of the repository (or installation) that holds this class, or null. */
    static Path defaultTemplatesDir() {
        Path here;
        try {
            var cs = NewCommand.class.getProtectionDomain().getCodeSource();
            if (cs == null || cs.getLocation() == null) {
                return null;
            }
            here = Path.of(cs.getLocation().toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException e) {
            return null;
        }
        // runtime/cli/target/cumulus-cli.jar or runtime/cli/target/classes: walk up to the folder holding templates/
        for (Path p = here; p != null; p = p.getParent()) {
            Path candidate = p.resolve("templates");
            if (Files.isDirectory(candidate) && Files.isRegularFile(p.resolve("cumulus"))) {
                return candidate;
            }
        }
        return null;
    }

    /** The toolkit's root for the README's run command: the parent of the templates folder if it has ./cumulus. */
    private static String cumulusHome(Path templatesRoot) {
        Path parent = templatesRoot.getParent();
        if (parent != null && Files.isRegularFile(parent.resolve("cumulus"))) {
            return parent.toString();
        }
        Path fallback = defaultTemplatesDir();
        return fallback != null ? fallback.getParent().toString() : "path/to/cumulus";
    }

    static String render(String text, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder sb = new StringBuilder(text.length());
        while (m.find()) {
            String v = values.get(m.group(1));
            m.appendReplacement(sb, Matcher.quoteReplacement(v != null ? v : m.group()));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** A template error (bad manifest, bad value); the message is shown as is. */
    static final class TemplateException extends Exception {
        TemplateException(String message) {
            super(message);
        }
    }

    record Variable(String name, String description, String defaultValue, Pattern pattern, String message) {
        void check(String value) throws TemplateException {
            if (pattern != null && !pattern.matcher(value).matches()) {
                throw new TemplateException("variable '" + name + "': value '" + value + "' must be "
                    + (message != null ? message : "as described") + " (pattern " + pattern.pattern() + ")");
            }
        }
    }

    record FileEntry(String from, String to) {
    }

    static final class Template {
        final String name;
        final String description;
        final List<Variable> variables;
        final List<FileEntry> files;
        final String mainClass;
        final Path folder;
        final Map<String, Object> run;

        private Template(Path folder, Map<String, Object> manifest) throws TemplateException {
            this.folder = folder;
            this.name = string(manifest, "name", folder.getFileName().toString());
            this.description = string(manifest, "description", "");
            this.variables = new ArrayList<>();
            for (Object o : list(manifest, "variables")) {
                Map<String, Object> v = map(o, "variables");
                String vname = string(v, "name", null);
                if (vname == null) {
                    throw new TemplateException(folder + "/template.json: a variable has no name");
                }
                Pattern p = null;
                String regex = string(v, "pattern", null);
                if (regex != null) {
                    try {
                        p = Pattern.compile(regex);
                    } catch (PatternSyntaxException e) {
                        throw new TemplateException(folder + "/template.json: variable '" + vname + "': bad pattern: "
                            + e.getDescription());
                    }
                }
                variables.add(new Variable(vname, string(v, "description", ""), string(v, "default", ""), p,
                    string(v, "message", null)));
            }
            this.files = new ArrayList<>();
            for (Object o : list(manifest, "files")) {
                Map<String, Object> f = map(o, "files");
                String from = string(f, "from", null);
                if (from == null) {
                    throw new TemplateException(folder + "/template.json: a file entry has no 'from'");
                }
                files.add(new FileEntry(from, string(f, "to", from)));
            }
            Object r = manifest.get("run");
            this.run = r instanceof Map<?, ?> ? map(r, "run") : Map.of();
            this.mainClass = string(run, "mainClass", null);
        }

        static List<Template> loadAll(Path root) throws IOException, TemplateException {
            List<Template> result = new ArrayList<>();
            try (Stream<Path> dirs = Files.list(root)) {
                for (Path d : dirs.sorted().toList()) {
                    Path manifest = d.resolve("template.json");
                    if (Files.isRegularFile(manifest)) {
                        Object parsed;
                        try {
                            parsed = JSON.fromJson(Files.readString(manifest, StandardCharsets.UTF_8), Object.class);
                        } catch (JsonParseException e) {
                            throw new TemplateException(manifest + ": " + e.getMessage());
                        }
                        result.add(new Template(d, map(parsed, manifest.toString())));
                    }
                }
            }
            return result;
        }

        Map<String, String> resolve(Map<String, String> given, Path target, String cumulusHome) throws TemplateException {
            Map<String, String> values = new LinkedHashMap<>();
            for (String key : given.keySet()) {
                if (variables.stream().noneMatch(v -> v.name.equals(key))) {
                    throw new TemplateException("template '" + name + "' has no variable '" + key + "' (variables: "
                        + String.join(", ", variables.stream().map(Variable::name).toList()) + ")");
                }
            }
            for (Variable v : variables) {
                String value = given.get(v.name);
                if (value == null) {
                    value = v.defaultValue;
                    // a project's artifactId defaults to its folder's name when that name is a valid one
                    String dirName = target.getFileName() == null ? "" : target.getFileName().toString();
                    if (v.name.equals("artifactId") && v.pattern != null && v.pattern.matcher(dirName).matches()) {
                        value = dirName;
                    }
                }
                v.check(value);
                values.put(v.name, value);
            }
            String pkg = values.getOrDefault("package", "");
            values.putIfAbsent("packagePath", pkg.replace('.', '/'));
            values.putIfAbsent("groupId", pkg.isEmpty() ? "org.example" : pkg);
            values.putIfAbsent("template", name);
            values.putIfAbsent("description", description);
            values.putIfAbsent("cumulusHome", cumulusHome);
            return values;
        }

        List<Path> render(Map<String, String> values, Path target) throws IOException, TemplateException {
            List<Path> written = new ArrayList<>();
            for (FileEntry f : files) {
                Path source = folder.resolve(f.from()).normalize();
                if (!source.startsWith(folder) || !Files.isRegularFile(source)) {
                    throw new TemplateException("template '" + name + "' names a missing file " + f.from());
                }
                Path out = target.resolve(NewCommand.render(f.to(), values)).normalize();
                if (!out.startsWith(target)) {
                    throw new TemplateException("template '" + name + "': " + f.to() + " leaves the project folder");
                }
                Files.createDirectories(out.getParent());
                Files.writeString(out, NewCommand.render(Files.readString(source, StandardCharsets.UTF_8), values),
                    StandardCharsets.UTF_8);
                written.add(out);
            }
            return written;
        }

        Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("description", description);
            List<Object> vs = new ArrayList<>();
            for (Variable v : variables) {
                Map<String, Object> vm = new LinkedHashMap<>();
                vm.put("name", v.name);
                vm.put("description", v.description);
                vm.put("default", v.defaultValue);
                vm.put("pattern", v.pattern == null ? null : v.pattern.pattern());
                vm.put("message", v.message);
                vs.add(vm);
            }
            m.put("variables", vs);
            m.put("run", run);
            return m;
        }

        private static String string(Map<String, Object> m, String key, String fallback) {
            Object v = m.get(key);
            return v == null ? fallback : v instanceof Double d && d == Math.rint(d) ? Long.toString(d.longValue()) : v.toString();
        }

        private static List<Object> list(Map<String, Object> m, String key) throws TemplateException {
            Object v = m.get(key);
            if (v == null) {
                return List.of();
            }
            if (v instanceof List<?> l) {
                return new ArrayList<>(l);
            }
            throw new TemplateException("template.json: '" + key + "' must be a list");
        }

        @SuppressWarnings("unchecked")
        private static Map<String, Object> map(Object o, String what) throws TemplateException {
            if (o instanceof Map<?, ?> m) {
                return (Map<String, Object>) m;
            }
            throw new TemplateException(what + ": expected a JSON object");
        }
    }
}
