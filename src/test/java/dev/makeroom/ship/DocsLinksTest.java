package dev.makeroom.ship;

import dev.makeroom.support.Docs;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the README and of docs/ reaches a file that exists and, when it names a
 * heading, a heading of that file (anchors as GitHub makes them), so moving a section cannot leave
 * a reader at a dead end.
 */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s#]*)(?:#([^)\\s]+))?\\)");

    @Test
    void every_relative_link_reaches_its_page_and_heading() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : Docs.pages()) {
            Matcher link = LINK.matcher(Files.readString(page));
            while (link.find()) {
                String file = link.group(1);
                if (file.startsWith("http:") || file.startsWith("https:")) {
                    continue;
                }
                Path target = file.isEmpty() ? page : page.resolveSibling(file).normalize();
                checked++;
                if (!Files.exists(target)) {
                    broken.add(page + ": " + link.group() + " (no such file)");
                } else if (link.group(2) != null && target.toString().endsWith(".md")
                        && !anchors(target).contains(link.group(2))) {
                    broken.add(page + ": " + link.group() + " (no such heading)");
                }
            }
        }
        assertThat(checked).as("links checked").isGreaterThan(20);
        assertThat(broken).isEmpty();
    }

    /** The anchors of a page's headings outside code blocks: lower case, punctuation dropped, spaces to hyphens. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean code = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code && line.startsWith("#")) {
                String title = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT);
                anchors.add(title.replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }
}
