// Package prefetch asks the processor to start loading a cache line that
// will be read soon, without waiting for it. Go has no prefetch builtin;
// a plain load would wait for the line, and the out-of-order window is too
// short to cover the work between a successor's fingerprint and its
// lookup in the visited set, or between a candidate's insert and the next
// ones.
package prefetch

import "unsafe"

// Line starts loading the cache line holding p, on amd64 and arm64; on
// other architectures it does nothing.
func Line(p unsafe.Pointer) { line(p) }
