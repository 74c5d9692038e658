/**
 * makeroom's decisions in pure Java: no Spring, fabric8, Jackson or Micrometer (an ArchUnit test
 * enforces it). Deterministic: time comes in as an injected clock. Decisions are values that carry
 * their reasons, so logs and the debug API explain them without recomputing.
 */
package dev.makeroom.core;
