/**
 * Adapts sources of Kubernetes objects into immutable core snapshots, behind
 * {@link dev.makeroom.core.model.ClusterView}. Kubernetes objects are read with fabric8's own model.
 */
package dev.makeroom.cluster;
