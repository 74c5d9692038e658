# makeroom: built with the Maven Wrapper, run on a slim JRE from an ahead-of-time cache trained in the build.
# docker build -t makeroom .

FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
# dependencies first: they change far less often than the sources, so this layer stays cached
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN ./mvnw -B -q dependency:go-offline
COPY src/ src/
# extracted as the AOT cache needs it: application/makeroom.jar names its libraries in dependencies/lib
# (a cache holds no classes loaded from a jar inside a jar)
RUN ./mvnw -B -q package -DskipTests \
 && cp target/makeroom-*.jar makeroom.jar \
 && java -Djarmode=tools -jar makeroom.jar extract --layers --destination /layers

FROM eclipse-temurin:25-jre
WORKDIR /app
# one image layer per Spring Boot layer, least often changed first
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/spring-boot-loader/ ./
COPY --from=build /layers/snapshot-dependencies/ ./
COPY --from=build /layers/application/ ./
# the kubectl plugin, for operators to copy out: docker cp, or kubectl cp from a running pod
COPY plugin/kubectl-makeroom ./kubectl-makeroom
# the heap is fixed at its full size: a heap G1 shrinks and grows again starts extra marking
# cycles, whose pauses land on scheduler calls (docs/benchmarks.md). Half the container's memory:
# the rest is metaspace, threads, code and buffers (at 150,000 pods a 512m heap peaked at 723 MB resident).
# G1 named: under 1792 MB of memory or with one cpu the JVM would pick the serial collector, which
# none of the figures in docs/benchmarks.md (all G1's) measured. Classes are unloaded at full
# collections only: unloading them in every marking cycle's remark pause made it 10-15 ms, the
# preempt verb's p99, and makeroom loads no classes it later drops (docs/benchmarks.md). Marking
# starts when the old generation fills 60% of the heap, not when G1's adaptive guess says: the view
# is most of the old generation and lives on, and the guess, which sets the young generation's share
# aside, started a marking cycle that freed nothing every few seconds under preemption load once
# the view passed a third of the heap (docs/benchmarks.md).
# The load tools start makeroom with these flags, read from this line.
ENV JAVA_TOOL_OPTIONS="-XX:+UseG1GC -XX:-ClassUnloadingWithConcurrentMark -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=60 -XX:InitialRAMPercentage=50 -XX:MaxRAMPercentage=50 -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp"
# the training run, with the flags above: makeroom on the demo cluster until its warm-up has called
# every verb over HTTP, then it exits and the JVM writes the classes it loaded and the profiles of
# the methods it ran to makeroom.aot, which the entrypoint starts from (Spring's start about halves
# where the cache was trained: docs/benchmarks.md). A JVM that cannot use the cache (another class
# path or JDK, say) warns and runs without it.
# (the demo cluster is mounted for the run only: BuildKit, docker build's default)
RUN --mount=type=bind,source=examples/demo-cluster.yaml,target=/tmp/training-cluster.yaml \
    java -XX:AOTCacheOutput=makeroom.aot -jar makeroom.jar --server.port=0 --management.server.port=0 \
      --makeroom.cluster.source=snapshot --makeroom.cluster.snapshot=/tmp/training-cluster.yaml \
      --makeroom.web.exit-after-warmup=true \
 && rm -rf /tmp/tomcat*
# non-root, numeric so runAsNonRoot can verify it; the root filesystem may be read-only:
# only /tmp (an emptyDir in the chart) is written, by Tomcat
USER 65532:65532
# 8080: the extender verbs; 8081: health, metrics and the debug API
EXPOSE 8080 8081
ENTRYPOINT ["java", "-XX:AOTCache=makeroom.aot", "-jar", "makeroom.jar"]
