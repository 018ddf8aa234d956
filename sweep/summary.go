package sweep

// ClassRowsUpTo is the most arrangement classes a row of results/<name>.json
// lists one by one: a row of more (n = 8 has 5,040 rotation classes, seven
// times n = 7's 720) keeps only its summary there, and says so
// (Row.ClassesOmitted). The figures of the summary are computed from
// every class all the same; `mc sweep SPEC --n 8 --json` prints them all.
const ClassRowsUpTo = 720

// Summarized is t as results/ stores it: rows of more than ClassRowsUpTo
// classes without their per-class data. t itself is left as it is.
func (t *Table) Summarized() *Table {
	out := *t
	out.Rows = make([]*Row, len(t.Rows))
	for i, r := range t.Rows {
		out.Rows[i] = r
		if len(r.PerClass) > ClassRowsUpTo {
			short := *r
			short.PerClass, short.ClassesOmitted = nil, true
			out.Rows[i] = &short
		}
	}
	return &out
}
