//go:build unix && !linux && !race

package offheap

// populate is no flag: other unix kernels (darwin's among them) have no
// MAP_POPULATE, and fault the pages in as they are first written.
const populate = 0
