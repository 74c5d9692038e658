/**
 * The kube-scheduler extender/v1 wire protocol: makeroom's own DTOs and thin controllers that
 * convert to core types, take one snapshot, ask the core and write the answer.
 */
package dev.makeroom.web;
