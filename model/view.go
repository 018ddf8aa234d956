package model

// View is the picture of a state that mc's drawings need and that Vars,
// being plain strings, cannot give generically: each process's status and
// each channel's pending messages. It is optional (System.View nil means the
// spec has none); with it, mc trace knows which message a step sent and
// received (by comparing the channels before and after the step, see
// checker.Messages), mc trace --format svg draws its message-sequence chart,
// and mc explore draws the ring with the messages waiting on each link.
//
// It is never computed while exploring, only for the few states a person
// looks at, so it may allocate and format freely.
type View struct {
	// Procs lists the processes in ring order, process 0 first.
	Procs []ProcView `json:"procs"`
	// Chans lists the channels, each one way. The JSON name is the one
	// trace files have always used.
	Chans []ChanView `json:"links"`
}

// ProcView is one process as a drawing shows it.
type ProcView struct {
	// Name is how traces name the process: "p2".
	Name string `json:"name"`
	// Label is what distinguishes it in the protocol: "id 4".
	Label string `json:"label"`
	// Status is the process's decision or mode in a word ("leader", "lost",
	// "in CS"), or "" while it has none. A change of status is what charts
	// mark as a decision.
	Status string `json:"status,omitempty"`
}

// ChanView is one channel, from process From to process To.
type ChanView struct {
	From int `json:"from"`
	To   int `json:"to"`
	// Name is the channel's variable in Vars, e.g. "p1.in".
	Name string `json:"name"`
	// Msgs are the pending messages in the channel's own order (FIFO:
	// oldest first; bag: its canonical order), as Message.String renders
	// them.
	Msgs []string `json:"messages"`
	// Kinds[i] is the kind of Msgs[i] (KindOf), by which sweeps count
	// messages without reading their rendering.
	Kinds []string `json:"-"`
}

// Kinded is a message that names its kind: the word for its type in the
// seed ("elect", "leader"), whatever it carries.
type Kinded interface{ KindName() string }

// KindOf is m's kind for a View, or "" when m does not name it.
func KindOf(m any) string {
	if k, ok := m.(Kinded); ok {
		return k.KindName()
	}
	return ""
}
