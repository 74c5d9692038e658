package dev.makeroom;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which package imports which, read from the sources' import statements: what the bytecode does not
 * show (an import only a Javadoc link uses) counts too, since a reader follows it all the same. Its
 * cycles are the groups of packages that reach each other (Tarjan's strongly connected components).
 */
final class SourcePackageGraph {

    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([a-z][\\w.]*?)\\.[A-Z]\\w*[\\w.*]*;",
            Pattern.MULTILINE);

    private final Map<String, Set<String>> imports = new TreeMap<>();

    private SourcePackageGraph() {
    }

    /** The graph of every {@code .java} file under {@code root}, keeping only packages that start with {@code prefix}. */
    static SourcePackageGraph of(Path root, String prefix) {
        SourcePackageGraph graph = new SourcePackageGraph();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                graph.read(Files.readString(file), prefix);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return graph;
    }

    private void read(String source, String prefix) {
        Matcher pkg = PACKAGE.matcher(source);
        if (!pkg.find() || !pkg.group(1).startsWith(prefix)) {
            return;
        }
        Set<String> to = imports.computeIfAbsent(pkg.group(1), p -> new TreeSet<>());
        Matcher imported = IMPORT.matcher(source);
        while (imported.find()) {
            String target = imported.group(1);
            if (target.startsWith(prefix) && !target.equals(pkg.group(1))) {
                to.add(target);
            }
        }
    }

    /** Each package and the packages it imports. */
    Map<String, Set<String>> imports() {
        return imports;
    }

    /** Every group of two or more packages that import each other, directly or through others. */
    List<Set<String>> cycles() {
        return new Tarjan().run();
    }

    private final class Tarjan {
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<Set<String>> found = new ArrayList<>();

        List<Set<String>> run() {
            for (String pkg : imports.keySet()) {
                if (!index.containsKey(pkg)) {
                    visit(pkg);
                }
            }
            return found;
        }

        private void visit(String pkg) {
            index.put(pkg, index.size());
            low.put(pkg, index.get(pkg));
            stack.push(pkg);
            onStack.add(pkg);
            for (String next : imports.getOrDefault(pkg, Set.of())) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(pkg, Math.min(low.get(pkg), low.get(next)));
                } else if (onStack.contains(next)) {
                    low.put(pkg, Math.min(low.get(pkg), index.get(next)));
                }
            }
            if (low.get(pkg).equals(index.get(pkg))) {
                Set<String> component = new TreeSet<>();
                String member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(pkg));
                if (component.size() > 1) {
                    found.add(component);
                }
            }
        }
    }
}
