package termination

import (
	"github.com/ringcheck/mc/checker/extension"
	"github.com/ringcheck/mc/checker/store"
	"github.com/ringcheck/mc/model"
)

// markSlots are the marks with the visited set in memory, outside a
// reduced run: the store keeps each state's marks beside its fingerprint,
// a few bits a slot, with a bit that says the state was admitted since the
// level began (store.WithPayload). A successor's marks come with the lookup
// that finds it stored (worker.LookUp), and no state index is kept: a
// state costs its marks' bits and that bit instead of an index, 4 bytes a
// slot, and a byte of marks. The store writes each new state's marks as
// its commit inserts it. The marks phase writes no checkpoint, so the
// store never saves them.
//
// The marks of a level's states are also kept in admission order, a
// level's order, while the level waits to be expanded (levelCopy): a
// worker reads a state's marks there instead of looking up the store, a
// cache miss a state. A state of that level that gains marks after its
// admission (raise) makes the copy stale, and the level's marks are then
// looked up in the store.
type markSlots struct {
	st store.WithPayload
	// width is the bytes of a state's marks in a level's copy.
	width     int
	cur, next levelCopy
}

// levelCopy is the marks of a level's states, from index first on, width
// bytes each as markArray holds them (unpackMarks); stale says that some of them gained marks since.
type levelCopy struct {
	first uint32
	m     []byte
	stale bool
}

func newMarkSlots(st store.WithPayload, props int) *markSlots {
	return &markSlots{st: st, width: (props + 7) / 8}
}

// get finds a state not stored without marks and pending, as markArray
// does.
func (s *markSlots) get(fp uint64) (uint32, bool) {
	m, recent, stored := s.st.Payload(fp)
	return m, recent || !stored
}

func (s *markSlots) has(_ uint32, fp uint64) uint32 {
	m, _, _ := s.st.Payload(fp)
	return m
}

// ofLevel reads the level's copy if it holds states lo..hi-1 and is not
// stale, and looks the states up in the store otherwise.
func (s *markSlots) ofLevel(fr extension.Level, lo, hi int, buf *levelMarks) []uint32 {
	buf.marks = buf.marks[:0]
	if c := &s.cur; !c.stale && c.first == fr.First() && hi*s.width <= len(c.m) {
		for j := lo; j < hi; j++ {
			buf.marks = append(buf.marks, unpackMarks(c.m, j, s.width))
		}
		return buf.marks
	}
	buf.fps = buf.fps[:0]
	for j := lo; j < hi; j++ {
		buf.fps = append(buf.fps, model.Fingerprint(fr.State(j)))
	}
	buf.found, buf.marks = s.st.PayloadAll(buf.fps, buf.found, buf.marks)
	return buf.marks
}

// raise sets the marks in the store; a pending state's makes its level's
// copy stale.
func (s *markSlots) raise(fp uint64, m uint32, pending bool) {
	s.st.SetPayload(fp, m)
	if pending {
		s.next.stale = true
	}
}

// admit adds the marks of the new state to its level's copy: the store's
// commit gave the state its candidate's marks.
func (s *markSlots) admit(_ uint32, _ uint64, m uint32) {
	for k := range s.width {
		s.next.m = append(s.next.m, byte(m>>(8*k)))
	}
}

func (s *markSlots) startLevel(_, first uint32) {
	s.st.NewLevel()
	s.cur, s.next = s.next, levelCopy{first: first, m: s.cur.m[:0]}
}

// bytes are the store's marks; the levels' copies are part of a run's
// peak memory, not of its marks.
func (s *markSlots) bytes() int64 { return s.st.PayloadBytes() }

// free drops the levels' copies; the store's Close frees its marks.
func (s *markSlots) free() { s.cur, s.next = levelCopy{}, levelCopy{} }
