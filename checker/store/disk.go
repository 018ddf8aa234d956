package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/ringcheck/mc/checker/internal/diskio"
)

// disk is the visited set on disk (--store disk): sorted runs of
// fingerprints (runs.go), asked once per level, when the level's
// candidates, held in a file meanwhile (deferred.go), are decided. Memory
// is bounded whatever the number of states: the runs' sparse indices, the
// sort's buffer and a bit per candidate of the level.
//
// Its files lie in the run's working directory: the runs in visited/, the
// level's candidates and their sort beside it.
type disk struct {
	runs     *runSet
	deferred *dddLevel
}

// The disk store's files in a run's working directory.
const (
	fileVisited    = "visited"
	fileKeys       = "keys"
	fileCandidates = "candidates"
)

// DiskPayload makes the disk store carry a payload of bits per candidate
// that it does not interpret beyond merging, a search extension's (package
// checker/termination's marks: disk.go there): a new state is
// admitted with the union (bitwise or) of the payloads of all the level's
// candidates of it, and every state stored before that the level's
// candidates reach with a payload is reported, with their union and its
// index. The runs then keep each state's index.
type DiskPayload struct {
	// At is the position of the payload among a candidate's values.
	At int
	// Reached is called during EndLevel, before the level's new states
	// are admitted, once for each state stored before the level that the
	// level's candidates with a payload reach: its index and their
	// payloads' union.
	Reached func(id, bits uint32)
}

// Locator is the disk store with a payload, between levels: Locate sets
// ids[i] to the index of the state with fingerprint fps[i], or NotStored;
// fps must be increasing. It reads the runs once, skipping the blocks that
// hold nothing sought.
type Locator interface {
	Locate(fps []uint64, ids []uint32) error
}

// OpenDisk opens the disk store in the run's working directory workDir:
// empty for a new run, as a checkpoint left it for a resumed one (Recover).
// values is the number of values each candidate carries, and maxEncoding
// the largest encoding of a state. A store that keeps is one whose run
// checkpoints: it keeps the runs merged away until the next checkpoint no
// longer needs them. With a payload, the store also is a Locator.
func OpenDisk(workDir string, values, maxEncoding int, keep bool, payload *DiskPayload) (Store, error) {
	runs, err := openRunSet(filepath.Join(workDir, fileVisited), payload != nil)
	if err != nil {
		return nil, err
	}
	runs.keep = keep
	deferred, err := openDDD(workDir, values, maxEncoding, payload)
	if err != nil {
		return nil, err
	}
	return &disk{runs: runs, deferred: deferred}, nil
}

// RemoveDisk deletes the disk store's files from the working directory
// workDir, and only those: a run file is named run-<id>.
func RemoveDisk(workDir string) error {
	var errs []error
	for _, name := range []string{fileKeys, fileCandidates} {
		if err := os.Remove(filepath.Join(workDir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	visited := filepath.Join(workDir, fileVisited)
	entries, err := os.ReadDir(visited)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	for _, e := range entries {
		if _, ok := runID(e.Name()); ok {
			errs = append(errs, os.Remove(filepath.Join(visited, e.Name())))
		}
	}
	if err := os.Remove(visited); err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// SeenAll finds nothing: the runs are asked once per level, by EndLevel.
func (d *disk) SeenAll(c *Candidates, seen []bool) []bool {
	seen = slices.Grow(seen[:0], len(c.FPs))[:len(c.FPs)]
	clear(seen)
	return seen
}

// Prefetch does nothing: SeenAll reads nothing.
func (d *disk) Prefetch(uint64) {}

// Commit holds the round's candidates in the level's file.
func (d *disk) Commit(round []*Candidates, _ int, _ Admit) error {
	for _, c := range round {
		if err := d.deferred.add(c); err != nil {
			return fmt.Errorf("candidates: %w", err)
		}
	}
	return nil
}

// EndLevel looks the level's candidates up in the runs, adds the new ones,
// admits them in order and empties the candidates for the next level.
func (d *disk) EndLevel(admit Admit) error {
	if err := d.deferred.resolve(d.runs); err != nil {
		return fmt.Errorf("visited set: %w", err)
	}
	if err := d.deferred.each(admit); err != nil {
		return err
	}
	return d.deferred.reset()
}

// Locate is Locator's; only a store with a payload keeps the indices.
func (d *disk) Locate(fps []uint64, ids []uint32) error {
	if !d.runs.ids {
		return fmt.Errorf("internal error: the disk store keeps no indices")
	}
	return d.runs.locate(fps, ids)
}

func (d *disk) Len() int64       { return d.runs.len() }
func (d *disk) Bytes() int64     { return d.runs.bytes() + d.deferred.bytes() }
func (d *disk) FileBytes() int64 { return d.runs.fileBytes() }

// Checkpoint makes the runs durable and writes the manifest: the runs,
// oldest first, each with its size and sum, which Recover checks.
func (d *disk) Checkpoint(w *diskio.SectionWriter) error {
	if err := d.runs.sync(); err != nil {
		return err
	}
	runs := d.runs.manifest()
	w.Uint(uint64(len(runs)))
	for _, r := range runs {
		w.String(r.name)
		w.Uint(uint64(r.n))
		w.Uint64(r.sum)
	}
	return nil
}

// Committed deletes the runs merged away before the checkpoint just
// saved, which no longer needs them.
func (d *disk) Committed() error { return d.runs.forgetRetired() }

// Recover reads the manifest and restores the runs it lists, checking each
// one's size, order and sum, and deleting every other run file. A fault of
// the disk in reading a run stays one; any other difference says the
// visited set is not the checkpoint's.
func (d *disk) Recover(r *diskio.Section, states int64) error {
	runs := make([]runEntry, min(r.Uint(), uint64(r.Len())))
	for i := range runs {
		runs[i] = runEntry{name: r.String(), n: int64(r.Uint()), sum: r.Uint64()}
	}
	if r.Err() != nil {
		return &diskio.BadSection{Why: "truncated or overlong sections"}
	}
	if err := d.runs.restore(runs); err != nil {
		if diskio.ReadFault(err) {
			return err
		}
		return fmt.Errorf("the visited set in %s is not the one the checkpoint was made with: %v", d.runs.dir, err)
	}
	if d.runs.len() != states {
		return &diskio.BadSection{Why: fmt.Sprintf("the disk store holds %d states, the checkpoint %d", d.runs.len(), states)}
	}
	return nil
}

func (d *disk) Close() error {
	return errors.Join(d.deferred.close(), d.runs.close())
}
