package checker

import (
	"mc/checker/internal/diskio"
	"mc/checker/store"
	"mc/model"
)

// markSlots are the marks with the visited set in memory, outside a
// reduced run: the store keeps each state's marks beside its fingerprint,
// a few bits a slot, with a bit that says the state was admitted since the
// level began (store.Marked). A successor's marks come with the lookup
// that finds it stored (expander.lookUp), and no state index is kept: a
// state costs its marks' bits and that bit instead of an index, 4 bytes a
// slot, and a byte of marks. The store writes each new state's marks as
// its commit inserts it, and its checkpoint section holds them.
type markSlots struct{ st store.Marked }

// get finds a state not stored without marks and pending, as markArray
// does.
func (s markSlots) get(fp uint64) (uint32, bool) {
	m, recent, stored := s.st.Marks(fp)
	return m, recent || !stored
}

func (s markSlots) has(_ uint32, fp uint64) uint32 {
	m, _, _ := s.st.Marks(fp)
	return m
}

func (s markSlots) of(_ uint32, enc []byte) uint32 {
	m, _, _ := s.st.Marks(model.Fingerprint(enc))
	return m
}

func (s markSlots) raise(fp uint64, m uint32) { s.st.SetMarks(fp, m) }

// admit has nothing to do: the store's commit gave the state its
// candidate's marks.
func (s markSlots) admit(uint32, uint64, uint32) {}

func (s markSlots) startLevel(_, _ uint32) { s.st.NewLevel() }

// write and read have nothing to do: the store's section holds the marks.
func (s markSlots) write(*diskio.SectionWriter)        {}
func (s markSlots) read(*diskio.Section, uint32) error { return nil }

func (s markSlots) bytes() int64 { return s.st.MarksBytes() }

// free has nothing to do: the store's Close frees the marks.
func (s markSlots) free() {}
