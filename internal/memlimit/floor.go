package memlimit

// Floor is the smallest memory limit the process can keep to: what it
// holds already when it reads its flags (the runtime, the binary's pages,
// the specs' tables), with room for the work to start until the first
// check of the limit, in whole MiB. A smaller limit could only be passed
// at once, so it is refused before the run rather than overshot.
func Floor() int64 {
	need := InUse(0) + startRoom
	return (need + 1<<20 - 1) &^ (1<<20 - 1)
}

// startRoom is the memory a run takes before it first checks the limit:
// its first blocks and tables, the goroutines of its workers.
const startRoom = 4 << 20
