package runinfo

// Store is where a run keeps its visited set. It is not part of the run's
// Meaning (a memory run and a disk run give the same figures), but a
// checkpoint holds the store's own data, so it can be resumed only into
// the store it was written from.
type Store struct {
	// Kind is "memory" or "disk".
	Kind string `json:"kind"`
	// Dir is the disk store's directory; "" in memory.
	Dir string `json:"dir,omitempty"`
}

// Memory is the in-memory store.
var Memory = Store{Kind: "memory"}

// Disk is the disk store in dir.
func Disk(dir string) Store { return Store{Kind: "disk", Dir: dir} }

// Settings lists the store as the command line names it.
func (s Store) Settings() []Setting {
	dir := s.Dir
	if dir == "" {
		dir = "none"
	}
	return []Setting{{"--store", s.Kind}, {"--dir", dir}}
}

// StoreDifferences lists the elements in which is differs from was.
func StoreDifferences(was, is Store) []Difference {
	return differ(was.Settings(), is.Settings())
}
