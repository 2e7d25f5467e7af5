package dev.cumulus.profiler.channel;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Reads and writes the profile channel with Gson, outside node JVMs (launcher, {@code cumulus profile}, language
 * server). The records' component names are the field names; the two sealed types are chosen by their discriminator
 * ({@code type} of a {@link ProfileRecord}, {@code kind} of a {@link LiveObject}). Thread-safe.
 */
public final class ProfileGson {
    private static final Map<String, Class<? extends ProfileRecord>> TYPES = Map.of(
        LiveWindow.TYPE, LiveWindow.class, LiveFigures.TYPE, LiveFigures.class, ProfileReport.TYPE,
        ProfileReport.class);
    private static final Map<String, Class<? extends LiveObject>> KINDS = Map.of(
        LiveObject.Cloud.KIND, LiveObject.Cloud.class, LiveObject.Remote.KIND, LiveObject.Remote.class,
        LiveObject.Tuple.KIND, LiveObject.Tuple.class, LiveObject.Array.KIND, LiveObject.Array.class,
        LiveObject.Other.KIND, LiveObject.Other.class);
    private static final Gson GSON = register(new GsonBuilder()).disableHtmlEscaping().create();

    private ProfileGson() {
    }

    /** Adds the channel's type adapters to {@code builder} (the language server's LSP4J Gson uses this). */
    public static GsonBuilder register(GsonBuilder builder) {
        return builder.registerTypeAdapterFactory(new Discriminated<>(ProfileRecord.class, "type", TYPES, null))
            .registerTypeAdapterFactory(new Discriminated<>(LiveObject.class, "kind", KINDS, LiveObject.Other.class));
    }

    /** The configured Gson. */
    public static Gson gson() {
        return GSON;
    }

    /** A record as one line of JSON. */
    public static String write(ProfileRecord record) {
        return GSON.toJson(record, ProfileRecord.class);
    }

    /**
     * One line of the channel.
     *
     * @throws IllegalArgumentException when it is not JSON or not a record of a known type, saying which
     */
    public static ProfileRecord read(String json) {
        try {
            ProfileRecord r = GSON.fromJson(json, ProfileRecord.class);
            if (r == null) {
                throw new IllegalArgumentException("not a profile record: empty");
            }
            return r;
        } catch (JsonParseException | IllegalStateException e) {
            throw new IllegalArgumentException("not a profile record: " + e.getMessage(), e);
        }
    }

    /** Picks a sealed type's record class by a discriminator field; writes with the value's own class. */
    private record Discriminated<T>(Class<T> base, String field, Map<String, Class<? extends T>> classes,
                                    Class<? extends T> fallback) implements TypeAdapterFactory {
        @Override
        @SuppressWarnings("unchecked")
        public <R> TypeAdapter<R> create(Gson gson, TypeToken<R> type) {
            if (type.getRawType() != base) {
                return null;
            }
            TypeAdapter<JsonElement> tree = gson.getAdapter(JsonElement.class);
            return (TypeAdapter<R>) new TypeAdapter<T>() {
                @Override
                public void write(JsonWriter out, T value) throws IOException {
                    if (value == null) {
                        out.nullValue();
                        return;
                    }
                    writeAs(gson, out, value);
                }

                @Override
                public T read(JsonReader in) throws IOException {
                    JsonElement e = tree.read(in);
                    if (e == null || e.isJsonNull()) {
                        return null;
                    }
                    if (!e.isJsonObject()) {
                        throw new JsonParseException("expected a JSON object for " + base.getSimpleName());
                    }
                    JsonObject o = e.getAsJsonObject();
                    JsonElement d = o.get(field);
                    String key = d != null && d.isJsonPrimitive() ? d.getAsString() : null;
                    Class<? extends T> c = key == null ? null : classes.get(key);
                    if (c == null) {
                        c = fallback;
                    }
                    if (c == null) {
                        throw new JsonParseException("unknown " + field + " '" + key + "' (expected one of "
                            + classes.keySet() + ")");
                    }
                    return gson.getDelegateAdapter(Discriminated.this, TypeToken.get(c)).fromJsonTree(o);
                }
            };
        }

        @SuppressWarnings("unchecked")
        private <V extends T> void writeAs(Gson gson, JsonWriter out, T value) throws IOException {
            TypeAdapter<V> a = (TypeAdapter<V>) gson.getDelegateAdapter(this, TypeToken.get(value.getClass()));
            a.write(out, (V) value);
        }
    }
}
