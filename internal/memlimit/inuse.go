package memlimit

import "runtime/metrics"

// InUse is the memory the process holds as a limit counts it: the greater
// of what the operating system says is resident (Resident) and what the Go
// runtime has mapped and not returned (heap, stacks, its own structures:
// what GOMEMLIMIT limits) plus outside, the bytes the caller maps beside
// the runtime. The resident set takes in what the runtime does not know
// of (the binary's pages, memory mapped by hand, files mapped to be read);
// the runtime's figure counts memory as soon as it is mapped, before its
// pages are first touched and become resident.
func InUse(outside int64) int64 {
	return max(Resident(), runtimeBytes()+outside)
}

// runtimeBytes is what the Go runtime holds from the system.
func runtimeBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}
