# makeroom: built with the Maven Wrapper, run as Spring Boot layers on a slim JRE.
# docker build -t makeroom .

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
# dependencies first: they change far less often than the sources, so this layer stays cached
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN ./mvnw -B -q dependency:go-offline
COPY src/ src/
RUN ./mvnw -B -q package -DskipTests \
 && java -Djarmode=tools -jar target/makeroom-*.jar extract --layers --launcher --destination /layers

FROM eclipse-temurin:17-jre
WORKDIR /app
# one image layer per Spring Boot layer, least often changed first
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/spring-boot-loader/ ./
COPY --from=build /layers/snapshot-dependencies/ ./
COPY --from=build /layers/application/ ./
# non-root, numeric so runAsNonRoot can verify it; the root filesystem may be read-only:
# only /tmp (an emptyDir in the chart) is written, by Tomcat
USER 65532:65532
# the heap is fixed at its full size: a heap G1 shrinks and grows again starts extra marking
# cycles, whose pauses land on scheduler calls (docs/benchmarks.md). Half the container's memory:
# the rest is metaspace, threads, code and buffers (at 150,000 pods a 512m heap peaked at 723 MB resident)
ENV JAVA_TOOL_OPTIONS="-XX:InitialRAMPercentage=50 -XX:MaxRAMPercentage=50 -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp"
# 8080: the extender verbs; 8081: health, metrics and the debug API
EXPOSE 8080 8081
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
