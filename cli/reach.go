package cli

import (
	"fmt"
	"io"

	"github.com/ringcheck/mc/model"
)

// exhaustiveReach is the most processes that may each start on their own
// which an exhaustive run can still interleave to the end. k processes
// whose first steps are independent (each changes only its own variables
// and its outgoing channels) reach every subset of those steps taken: 2^k
// states or more. At 2^40 the visited set's fingerprints alone, 8 bytes
// each, would fill 8 TiB.
const exhaustiveReach = 40

// warnUnfinishable says in one line on stderr, before a run of p starts,
// that it cannot finish: too many processes start on their own (every
// process, or --initiators). It warns, and does not refuse: the run is
// still a bounded search until a limit stops it.
func warnUnfinishable(stderr io.Writer, p model.Params) {
	k := p.N
	if p.Initiators != nil {
		k = len(p.Initiators)
	}
	if k <= exhaustiveReach {
		return
	}
	fmt.Fprintf(stderr, "mc check: warning: n=%d, %d processes starting on their own: their first steps alone interleave into 2^%d states or more, so this run cannot finish and will stop at a limit (memory, --timeout); mc simulate samples rings of any size\n",
		p.N, k, k)
}
