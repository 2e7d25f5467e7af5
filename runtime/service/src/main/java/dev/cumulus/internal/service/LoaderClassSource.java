package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;

import java.io.IOException;
import java.io.InputStream;

/** A client's {@link ClassSource}: the class files its class loader finds. Any thread (call threads). */
public final class LoaderClassSource implements ClassSource {
    private final ClassLoader loader;

    public LoaderClassSource(ClassLoader loader) {
        this.loader = loader;
    }

    @Override
    public byte[] classBytes(String className) {
        if (className == null || !ClassSource.shippable(className)) {
            return null;
        }
        try (InputStream in = loader.getResourceAsStream(className.replace('.', '/') + ".class")) {
            if (in == null) {
                return null;
            }
            byte[] bytes = in.readNBytes(MAX_CLASS_BYTES + 1);
            if (bytes.length > MAX_CLASS_BYTES) {
                throw new CumulusException("class " + className + " is larger than " + MAX_CLASS_BYTES
                    + " bytes, the most a client ships");
            }
            return bytes;
        } catch (IOException e) {
            throw new CumulusException("cannot read class " + className + " on the client: " + e.getMessage(), e);
        }
    }
}
