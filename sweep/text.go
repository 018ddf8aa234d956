package sweep

import (
	"fmt"
	"io"
	"strings"
)

// preamble explains the tables of results/README.md.
const preamble = `Each table is computed by ` + "`mc sweep`" + `: for every ring size n, one
arrangement of the ids 1..n per symmetry class (rotation; rotation and
reflection for vlt, whose graphs start from every orientation assignment;
ids relabelled by rank, since these algorithms only compare ids), the whole
reachable state graph is built and every transition weighted by the
messages it sends, read off the spec's View by comparing the channels
before and after the step (for vitanyi, which has no View, by the increase
of its ghost counter ` + "`messages`" + `, with --claims). The worst and best
messages are the longest and shortest paths from the initial state to a
terminal state: the most and fewest messages of any complete run, over
every schedule. A cycle in the graph makes the cost unbounded and is
reported with the cycle (in the JSON, its worst, best and mean are
null). Every counted message counts once per link it is put on, those
in transit in the initial state included (all-initiate's n first
⟨elect⟩); the announcement round that several specs add to their seeds
(⟨done⟩, ⟨leader⟩, ⟨ended⟩, ⟨elected⟩) is not counted: each table says
what is (docs/sweeps.md, "What counts").

Columns: arrangements (classes) is how many arrangements the classes cover
and how many were computed; states sums the graphs' states over the
classes; mean worst is the exact mean, over all n! arrangements, of each
arrangement's worst case; schedule-dependent classes counts the classes whose
best and worst differ. Where a paper bounds a·n·log n + O(n) without the
O(n) term, "c needed" is the smallest c with worst ≤ a·n·log₂ n + c·n at that
n, decided exactly on integers and rounded up at the third decimal
(exact where c is a whole number of thousandths, as where log₂ n is
whole). Where a spec defines phases (rounds, stages), "most phases" is
the largest value of its phase measure in any reachable state, i.e. over
all runs; where the measure is a ghost the spec
is built with --claims, and the tests check that this adds no states. Worst
bits is the longest path with each transition weighted by the bits it
sends, for the spec whose paper defines message sizes (vitanyi). The causal
depth of a run is its time with unit message delays and instantaneous
local steps: the longest chain of messages (every message, announcements
included) each sent by the receiver of the previous one, at or after its
receipt (sweep.CausalDepth). "Longest causal chain (all runs)" is its
maximum over every run, computed exactly by exploring the states of the
graph stamped with a clock per process and a stamp per message in transit
(sweep/causal.go); "stamped states" is how many that took, its cost, to
set against the graph's states. Where the processes are deterministic on
FIFO channels (dkr, hp) the stamps are a function of the state and the two
counts agree. The column is "—" where it was not computed: no View
(vitanyi), a cycle, or sizes left out for time (n ≥ 7 for changroberts and
lelann, n ≥ 5 for hs and vlt, n ≥ 6 for franklin, n ≥ 7 for dkr). "Causal depth of worst run" is the depth of
the worst-messages witness run alone. The witness runs are in traces/ (open them with ` + "`mc trace`" + `
or ` + "`mc explore --trace`" + `).

Each table has its plot, <name>.svg: the worst case and the mean worst
against n, with the bound's curve where the paper gives one, both axes
logarithmic as in the sampled tables' plots. A row of more than 720
classes (n = 8: 5,040) keeps only its summary in <name>.json
("per_arrangement_omitted": true), not one entry per class, which would add
about 2 MB per table; ` + "`mc sweep SPEC --n 8 --json`" + ` prints every class.
A table computed with --por says so in its heading: its states are those
of the reduced graphs, its messages and causal chains exact
(docs/sweeps.md proves it). A row computed so in a table that is not
(franklin's n = 8, hs's n = 6: out of reach otherwise) says "(reduced graphs)" after
its states, and its phases read off a ghost are "—". Where a table stops short
of n = 8, its note says what that size would cost.

`

// partialOrder points at por.md, which bench/por.sh writes and this
// generator leaves alone.
const partialOrder = `## Partial-order reduction

` + "`por.md`" + `: states stored with partial-order reduction (` + "`mc check --por\n--safety`" + `) against full exploration and SPIN, for Chang–Roberts and LeLann up
to n = 20, with time and memory; ` + "`bench/por.sh`" + ` produces its rows.
`

// WriteReadme writes results/README.md: how to regenerate it (the command
// regenerate), the preamble, the plot, every table, the specs not swept
// (unswept, each with the reason) and the pointer to por.md. It owns the
// whole file.
func WriteReadme(w io.Writer, regenerate string, tables []*Table, unswept []string) {
	fmt.Fprintf(w, "# results\n\nEverything here but por.md is generated: regenerate it with\n\n    %s\n\nand check the quick subset (what CI runs) with `go run ./cmd/mc ci`.\n\n", regenerate)
	io.WriteString(w, preamble)
	io.WriteString(w, "![worst messages against n](worst.svg)\n\n")
	for _, t := range tables {
		WriteMarkdown(w, t)
	}
	if len(unswept) > 0 {
		fmt.Fprintf(w, "## Not swept\n\n%s\n\n", strings.Join(unswept, "\n"))
	}
	io.WriteString(w, partialOrder)
}
