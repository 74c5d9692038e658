package dev.makeroom.process;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A JVM launched without -XX:+ExitOnOutOfMemoryError still exits when a thread of it runs out of memory. */
class OutOfMemoryExitTest {

    /** Run in a child JVM: a background thread dies of OutOfMemoryError, the main thread then waits forever. */
    public static void main(String[] args) throws Exception {
        OutOfMemoryExit.install();
        Thread worker = new Thread(() -> {
            throw new IllegalStateException("listing failed", new OutOfMemoryError("Java heap space"));
        }, "informer");
        worker.start();
        worker.join();
        Thread.currentThread().join(); // what a hung replica does: only the handler can end this process
    }

    @Test
    void an_out_of_memory_error_in_any_thread_ends_the_process_with_code_3() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), OutOfMemoryExitTest.class.getName())
                .redirectErrorStream(true).start();

        try {
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child ended").isTrue();
            assertThat(child.exitValue()).isEqualTo(OutOfMemoryExit.EXIT_CODE);
            assertThat(new String(child.getInputStream().readAllBytes())).contains("out of memory in informer");
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void other_errors_are_left_to_the_usual_handling() {
        assertThat(OutOfMemoryExit.causedByOutOfMemory(new IllegalStateException("x"))).isFalse();
        assertThat(OutOfMemoryExit.causedByOutOfMemory(new RuntimeException(new OutOfMemoryError()))).isTrue();
    }
}
