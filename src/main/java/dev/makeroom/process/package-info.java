/**
 * What concerns the process as a whole, below every other package: ending it on an OutOfMemoryError,
 * answering {@code --help} and {@code --version} before anything starts, and refusing, first on every
 * port, a request whose query string no endpoint could read.
 */
package dev.makeroom.process;
