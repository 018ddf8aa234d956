package runinfo

// Store is where a run keeps its visited set: "memory", or "disk". It is
// not part of the run's Meaning (a memory run and a disk run give the same
// figures), but a checkpoint holds the store's own data, so it can be
// resumed only into the store it was written from. A disk run's working
// directory is recorded beside it, in the checkpoint's disk section
// (checker/checkpoint_workdir.go), which checks it on resume.
type Store string

// The stores.
const (
	MemoryStore Store = "memory"
	DiskStore   Store = "disk"
)

// StoreDifference is the difference between two stores, as the command
// line names it, or nil when they are the same.
func StoreDifference(was, is Store) *Difference {
	if was == is {
		return nil
	}
	return &Difference{Option: "--store", Was: string(was), Is: string(is)}
}
