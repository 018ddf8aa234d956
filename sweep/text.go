package sweep

// Preamble explains the tables of results/README.md.
const Preamble = `Each table is computed by ` + "`mc sweep`" + `: for every ring size n, one
arrangement of the ids 1..n per symmetry class (rotation; rotation and
reflection for rings without a common orientation; ids relabelled by rank,
since these algorithms only compare ids), the whole reachable state graph is
built and every transition weighted by the messages it sends, read off the
spec's View by comparing the channels before and after the step (for
vitanyi, which has no View, by the increase of its ghost counter
` + "`messages`" + `, with --claims). The worst and best messages are the
longest and shortest paths from the initial state to a terminal state: the
most and fewest messages of any complete run, over every schedule. A cycle
in the graph would make the cost unbounded and is reported with the cycle.

Columns: arrangements (classes) is how many arrangements the classes cover
and how many were computed; states sums the graphs' states over the
classes; mean worst is the exact mean, over all n! arrangements, of each
arrangement's worst case; schedule-dependent classes counts the classes whose
best and worst differ. The causal depth of the worst run is its time with
unit message delays and instantaneous local steps: the longest chain of
messages each sent by the receiver of the previous one, at or after its
receipt (checker.CausalDepth); it is the depth of that witness run, not a
maximum over all runs. The witness runs are in traces/ (open them with
` + "`mc trace`" + ` or ` + "`mc explore --trace`" + `).

`

// Unswept lists the specs the sweep cannot count yet.
const Unswept = `## Not swept

dkr, hp and vlt have neither a View (the picture of channels the sweep
reads messages from) nor a message-count measure, so the sweep cannot weigh
their transitions without adding a counter to their state, which it does
not do. Giving them a View puts them in these tables.
`
