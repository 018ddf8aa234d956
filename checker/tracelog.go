package checker

// traceLog is the append-only log of trace links: entry i says how state i
// was first reached. It grows in fixed blocks, so growing never copies and
// never holds two copies of the log at once.
type traceLog struct {
	blocks [][]link
	n      int
}

const logBlock = 1 << 16

// add appends l as the next state's link and returns that state's index.
func (t *traceLog) add(l link) uint32 {
	if t.n%logBlock == 0 {
		t.blocks = append(t.blocks, make([]link, 0, logBlock))
	}
	b := &t.blocks[len(t.blocks)-1]
	*b = append(*b, l)
	t.n++
	return uint32(t.n - 1)
}

// at is the link of state id.
func (t *traceLog) at(id uint32) link { return t.blocks[id/logBlock][id%logBlock] }

func (t *traceLog) len() int { return t.n }

func (t *traceLog) bytes() int64 { return int64(len(t.blocks)) * logBlock * 8 }
