/** The offline "why": one decision for one pending pod of a cluster dump, printed with its reasons. */
package dev.makeroom.why;
