package dev.makeroom.core.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AmountsTest {

    @Test
    void cpu_memory_and_counts_read_as_kubernetes_writes_them() {
        assertThat(Amounts.spelled("cpu", 2000)).isEqualTo("2");
        assertThat(Amounts.spelled("cpu", 2500)).isEqualTo("2500m");
        assertThat(Amounts.spelled("cpu", 0)).isEqualTo("0");
        assertThat(Amounts.spelled("memory", 1L << 30)).isEqualTo("1Gi");
        assertThat(Amounts.spelled("memory", 1536L << 20)).isEqualTo("1536Mi");
        assertThat(Amounts.spelled("memory", 1000)).isEqualTo("1000");
        assertThat(Amounts.spelled("hugepages-2Mi", 4L << 20)).isEqualTo("4Mi");
        assertThat(Amounts.spelled("pods", 1024)).isEqualTo("1024");
        assertThat(Amounts.spelled(Resources.of("cpu", 500, "memory", 64L << 20))).isEqualTo("cpu 500m, memory 64Mi");
        assertThat(Amounts.spelled(Resources.NONE)).isEqualTo("nothing");
    }
}
