package dev.makeroom.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The project's documentation as a reader finds it: the README, then the pages of {@code docs/}. */
public final class Docs {

    private Docs() {
    }

    /** The README and every page of {@code docs/}, in name order. */
    public static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** One page's text, e.g. {@code page("configuration")} for docs/configuration.md. */
    public static String page(String name) {
        try {
            return Files.readString(Path.of("docs", name + ".md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
