package dev.makeroom.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The two places a configuration document comes from, as the queues and the rescheduler share them:
 * the application's ({@code <prefix>.file} or {@code <prefix>.config}, at most one), and a key of a
 * watched ConfigMap, which takes precedence while it holds one.
 */
public final class ConfigDocuments {

    /** A document and where it came from, for logs and the debug API. */
    public record Document(String source, String text) {
    }

    private ConfigDocuments() {
    }

    /** The application's document, or null when neither property is set. */
    public static Document fromApplication(String prefix, String file, String inline) {
        boolean hasFile = file != null && !file.isBlank();
        boolean hasInline = inline != null && !inline.isBlank();
        if (hasFile && hasInline) {
            throw new IllegalStateException("set " + prefix + ".file or " + prefix + ".config, not both");
        }
        if (!hasFile && !hasInline) {
            return null;
        }
        try {
            return hasFile ? new Document("file " + file, Files.readString(Path.of(file)))
                    : new Document(prefix + ".config", inline);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + prefix + ".file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Hands {@code onDocument} the ConfigMap's document under {@code key} whenever it changes, and
     * null once the key or the ConfigMap is gone; a notification that leaves it as it was (a resync,
     * another key changed) is not passed on.
     */
    public static void follow(ConfigMapFeed feed, String key, Consumer<String> onDocument) {
        feed.onConfigData(new Consumer<>() {
            private String last;

            @Override
            public synchronized void accept(Map<String, String> data) {
                String document = data.get(key);
                if (document == null ? last != null : !document.equals(last)) {
                    last = document;
                    onDocument.accept(document);
                }
            }
        });
    }
}
