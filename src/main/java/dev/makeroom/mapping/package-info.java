/**
 * Kubernetes objects (fabric8's model) to core values: pods, nodes, budgets, PriorityClasses,
 * selectors, quantities and annotations, read the way the kube-scheduler reads them. The one place
 * that knows both sides; the wire protocol ({@code web}), the live view and the snapshot file
 * ({@code cluster}), the debug API and the queue configuration all map through it. Objects or
 * bodies that cannot be read are named by where they failed ({@link dev.makeroom.mapping.ReadFailures}).
 */
package dev.makeroom.mapping;
