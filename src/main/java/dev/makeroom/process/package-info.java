/** What concerns the process as a whole, below every other package: ending it on an OutOfMemoryError. */
package dev.makeroom.process;
