package runstore

import (
	"fmt"
	"os"
	"path/filepath"
)

// Badger writes its logs and tables through memory-mapped files, and a
// process that writes through a mapping to a full file system is killed
// by SIGBUS: it gets no error to report. So the store checks, before it
// opens Badger and before every write, that the file system has room for
// all that the write may make Badger add: the record itself in the log
// and then in a table, a memtable's log and its flush, and a compaction
// rewriting every table of the store once. Short of that it refuses with
// Unwritable, naming the store, and writes nothing.
//
// Another process filling the file system between the check and the write
// can still defeat it; docs/runstore.md says so.

// NoRoom is why a store is Unwritable when its file system has too little
// room: Free bytes, where writing safely needs Need, the store's Size
// among them.
type NoRoom struct{ Free, Need, Size int64 }

func (e *NoRoom) Error() string {
	return fmt.Sprintf("its file system has %s free, and writing safely needs %s (the store's size, %s, and a reserve)",
		mib(e.Free), mib(e.Need), mib(e.Size))
}

// reserve is the room kept beyond the store's own size and twice the
// record's: two memtable logs (2 × memTableSize each, mapped at that size)
// and a flush of one, with a margin.
const reserve = 5*memTableSize + 12<<20

// freeSpace is the space available to this process on dir's file system
// (fsFree). Tests replace it to make a file system full.
var freeSpace = fsFree

// checkRoom refuses a write of about record bytes to the store in dir
// when its file system has too little room for it.
func checkRoom(dir string, record int) error {
	free, err := freeSpace(dir)
	if err != nil {
		return &Unwritable{Dir: dir, Err: err}
	}
	size, err := diskUsage(dir)
	if err != nil {
		return &Unwritable{Dir: dir, Err: err}
	}
	need := uint64(reserve) + uint64(size) + 2*uint64(record)
	if free < need {
		return &Unwritable{Dir: dir, Err: &NoRoom{Free: int64(free), Need: int64(need), Size: size}}
	}
	return nil
}

// diskUsage is the space the files of dir take on disk: their allocated
// blocks, not their lengths, since Badger's mapped files are sparse.
func diskUsage(dir string) (int64, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, e := range entries {
		if n, err := allocated(filepath.Join(dir, e.Name())); err == nil {
			total += n
		}
	}
	return total, nil
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
