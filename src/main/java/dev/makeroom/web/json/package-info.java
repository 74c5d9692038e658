/**
 * The extender protocol's bytes: reading the scheduler's bodies and writing makeroom's answers, fast.
 * {@link dev.makeroom.web.json.WireJson} is the one reader (filter and prioritize bodies by names or
 * by full Node objects, preempt bodies as they arrive); {@link dev.makeroom.web.json.NodesAnswers}
 * and {@link dev.makeroom.web.json.PreemptionAnswer} write the answers, into reused bytes where the
 * answer names thousands of nodes. Everything else here is how those readers avoid parsing what they
 * do not need; property tests hold each to Jackson's reading of the same body.
 */
package dev.makeroom.web.json;
