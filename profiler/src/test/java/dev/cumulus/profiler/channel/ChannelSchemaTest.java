package dev.cumulus.profiler.channel;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The channel's schema, pinned: a sample of every record kind with every field set (built from the records
 * themselves), written by both writers, and the field names of every record, must equal the checked-in
 * {@code profile-channel.json}. The editor's unit test reads the same file and checks {@code profileSchema.ts}
 * against it, so a field renamed on one side only fails one of the two tests.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ChannelSchemaTest {
    /** The checked-in schema file (also read by vscode-extension/test/unit/schema.test.ts). */
    static final Path FILE = Path.of("src/test/resources/profile-channel.json");
    /** {@code -Dcumulus.schema.update=true} rewrites {@link #FILE} after a deliberate change. */
    static final String UPDATE = "cumulus.schema.update";

    @Test
    void bothWritersWriteTheSameFieldsAndTheSchemaFileIsCurrent() throws Exception {
        LiveWindow window = (LiveWindow) sample(LiveWindow.class);
        ProfileReport report = (ProfileReport) sample(ProfileReport.class);
        LiveFigures figures = (LiveFigures) sample(LiveFigures.class);
        for (ProfileRecord r : List.of(window, figures, report)) {
            assertEquals(JsonParser.parseString(ProfileGson.write(r)), JsonParser.parseString(RecordWriter.write(r)),
                "the node's writer and Gson write " + r.type() + " alike");
            assertEquals(r, ProfileGson.read(RecordWriter.write(r)), r.type() + " reads back as written");
        }
        JsonObject schema = new JsonObject();
        JsonObject fields = new JsonObject();
        recordFields().forEach((name, names) -> {
            JsonArray a = new JsonArray();
            names.forEach(a::add);
            fields.add(name, a);
        });
        schema.add("fields", fields);
        JsonObject samples = new JsonObject();
        samples.add(LiveWindow.TYPE, JsonParser.parseString(RecordWriter.write(window)));
        samples.add(LiveFigures.TYPE, JsonParser.parseString(ProfileGson.write(figures)));
        samples.add(ProfileReport.TYPE, JsonParser.parseString(ProfileGson.write(report)));
        schema.add("samples", samples);
        String text = new GsonBuilder().setPrettyPrinting().create().toJson(schema) + "\n";
        if (Boolean.getBoolean(UPDATE)) {
            Files.writeString(FILE, text, StandardCharsets.UTF_8);
        }
        JsonElement checkedIn = JsonParser.parseString(Files.readString(FILE, StandardCharsets.UTF_8));
        assertEquals(checkedIn, JsonParser.parseString(text), "the profile channel's records changed: update "
            + "docs/design/PROFILER.md and vscode-extension/src/profileSchema.ts, then rewrite " + FILE
            + " with ./build -- -o -q test -pl profiler -am -Dtest=ChannelSchemaTest -D" + UPDATE + "=true");
    }

    @Test
    void aLiveObjectOfAnUnknownKindReadsAsOther() {
        LiveWindow w = (LiveWindow) ProfileGson.read("{\"type\":\"window\",\"version\":2,\"node\":1,\"objects\":"
            + "[{\"kind\":\"lock\",\"name\":\"L\",\"count\":3}]}");
        assertEquals(new LiveObject.Other("lock", "L", 3), w.objects().getFirst());
    }

    /** Every record of the channel by name ({@code LiveObject.Cloud}), with its field names in order. */
    static Map<String, List<String>> recordFields() {
        Map<String, List<String>> out = new TreeMap<>();
        for (Class<?> c : List.of(LiveWindow.class, LiveFigures.class, ProfileReport.class)) {
            collect(c, out);
        }
        return out;
    }

    private static void collect(Class<?> c, Map<String, List<String>> out) {
        if (c.isSealed()) {
            for (Class<?> p : c.getPermittedSubclasses()) {
                collect(p, out);
            }
            return;
        }
        if (!c.isRecord() || out.containsKey(name(c))) {
            return;
        }
        List<String> names = new ArrayList<>();
        out.put(name(c), names);
        for (RecordComponent rc : c.getRecordComponents()) {
            names.add(rc.getName());
            for (Class<?> t : classesIn(rc.getGenericType())) {
                collect(t, out);
            }
        }
    }

    private static String name(Class<?> c) {
        return c.getEnclosingClass() == null ? c.getSimpleName()
            : c.getEnclosingClass().getSimpleName() + "." + c.getSimpleName();
    }

    private static List<Class<?>> classesIn(Type t) {
        List<Class<?>> out = new ArrayList<>();
        if (t instanceof Class<?> c) {
            out.add(c);
        } else if (t instanceof ParameterizedType p) {
            for (Type a : p.getActualTypeArguments()) {
                out.addAll(classesIn(a));
            }
        }
        return out;
    }

    /** A record with every component set: numbers 1 (2.5 for doubles), lists of one sample, one of each kind. */
    static Object sample(Class<?> c) throws Exception {
        RecordComponent[] rcs = c.getRecordComponents();
        Object[] args = new Object[rcs.length];
        Class<?>[] types = new Class<?>[rcs.length];
        for (int i = 0; i < rcs.length; i++) {
            types[i] = rcs[i].getType();
            args[i] = value(c, rcs[i].getName(), rcs[i].getGenericType());
        }
        Constructor<?> k = c.getDeclaredConstructor(types);
        return k.newInstance(args);
    }

    /** Whether {@code c} is one of the records a discriminator field picks (its constant names the value). */
    private static boolean discriminated(Class<?> c) {
        return ProfileRecord.class.isAssignableFrom(c) || LiveObject.class.isAssignableFrom(c);
    }

    private static Object value(Class<?> owner, String name, Type t) throws Exception {
        if ((name.equals("type") || name.equals("kind")) && discriminated(owner)) {
            return owner.getField(name.toUpperCase()).get(null);
        }
        if (name.equals("version")) {
            return ProfileRecord.VERSION;
        }
        if (t instanceof ParameterizedType p && p.getRawType() == List.class) {
            Class<?> e = (Class<?>) p.getActualTypeArguments()[0];
            if (e.isSealed()) {
                List<Object> all = new ArrayList<>();
                for (Class<?> s : e.getPermittedSubclasses()) {
                    all.add(sample(s));
                }
                return all;
            }
            return List.of(value(owner, "element", e));
        }
        if (t instanceof ParameterizedType p && p.getRawType() == Map.class) {
            return Map.of("0", value(owner, "value", p.getActualTypeArguments()[1]));
        }
        Class<?> c = (Class<?>) t;
        if (c == String.class) {
            return name;
        } else if (c == int.class || c == Integer.class) {
            return 1;
        } else if (c == long.class || c == Long.class) {
            return 1L;
        } else if (c == double.class || c == Double.class) {
            return 2.5;
        } else if (c == boolean.class || c == Boolean.class) {
            return true;
        } else if (c.isRecord()) {
            return sample(c);
        }
        throw new IllegalStateException("no sample for " + t + " (" + owner.getSimpleName() + "." + name + ")");
    }
}
