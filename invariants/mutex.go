package invariants

import (
	"fmt"
	"slices"

	"github.com/ringcheck/mc/model"
)

// Mutual exclusion: what the mutual-exclusion specs (tokenring,
// suzukikasami, misra) share, each process's place in its cycle (idle,
// waiting for the critical section, inside it), and the properties every
// such algorithm promises (seed 002 §2: "any process that wishes to enter
// the critical section must be able to do so within a finite time").

// Phase is where a process is in its cycle: idle, then (when its user asks
// for the critical section) waiting, then in the critical section, then
// idle again.
type Phase uint8

const (
	Idle Phase = iota
	Waiting
	InCS
)

func (p Phase) String() string {
	switch p {
	case Waiting:
		return "waiting"
	case InCS:
		return "in-cs"
	}
	return "idle"
}

// Phases holds every process's phase: the view of a state that the
// mutual-exclusion properties read.
type Phases []Phase

// AppendTo writes one byte per process.
func (ps Phases) AppendTo(buf []byte) []byte {
	for _, p := range ps {
		buf = append(buf, byte(p))
	}
	return buf
}

// AppendInCS writes, per process, whether it is in its critical section:
// all that the safety properties read (model.Property.Reads; a function of
// each process's own phase), so that a request, which makes an idle
// process wait, is invisible to partial-order reduction.
func (ps Phases) AppendInCS(buf []byte) []byte {
	for _, p := range ps {
		buf = model.AppendBool(buf, p == InCS)
	}
	return buf
}

// DecodeFrom reads what AppendTo wrote into ps, which has the right length.
func (ps Phases) DecodeFrom(d *model.Decoder) {
	for i := range ps {
		ps[i] = Phase(d.Int())
	}
}

// Vars names the phases for traces: "p2.phase" = "waiting".
func (ps Phases) Vars(out []model.Var) []model.Var {
	for i, p := range ps {
		out = append(out, model.Var{Name: fmt.Sprintf("p%d.phase", i), Value: p.String()})
	}
	return out
}

// atMostOneInCS holds when at most one process is in its critical section.
func atMostOneInCS(ps Phases) bool {
	in := 0
	for _, p := range ps {
		if p == InCS {
			in++
		}
	}
	return in <= 1
}

// MutualExclusion is the invariant "at most one process is in its critical
// section", for a spec whose states give their phases through phases.
// Its situation is a state with a process in its critical section: a run
// in which none ever enters passes it vacuously.
func MutualExclusion[S any](ref string, phases func(s *S) Phases) model.Property[S] {
	return model.InvariantProp("mutual-exclusion", ref, "at most one process is in its critical section",
		func(s *S) bool { return atMostOneInCS(phases(s)) }).
		Reading(func(buf []byte, s *S) []byte { return phases(s).AppendInCS(buf) }).
		When("no process entered its critical section", func(s *S) bool { return slices.Contains(phases(s), InCS) })
}

// RequestGranted is "whenever process i waits for the critical section it
// eventually enters it", a liveness property under the run's fairness.
func RequestGranted[S any](i int, ref string, phases func(s *S) Phases) model.Property[S] {
	return model.LeadsToProp(fmt.Sprintf("request-granted-p%d", i), ref,
		fmt.Sprintf("whenever p%d waits for the critical section it eventually enters it", i),
		func(s *S) bool { return phases(s)[i] == Waiting },
		func(s *S) bool { return phases(s)[i] == InCS }).
		Reading(func(buf []byte, s *S) []byte { return append(buf, byte(phases(s)[i])) }).
		SayingUnmet(fmt.Sprintf("p%d never waited", i))
}

// CanEnter is the witness "some run lets process i enter its critical
// section".
func CanEnter[S any](i int, ref string, phases func(s *S) Phases) model.Property[S] {
	return model.WitnessProp(fmt.Sprintf("can-enter-p%d", i), ref,
		fmt.Sprintf("some run lets p%d enter its critical section", i),
		func(s *S) bool { return phases(s)[i] == InCS }).
		Reading(func(buf []byte, s *S) []byte { return phases(s).AppendInCS(buf) })
}

// MutexProperties are the claims every mutual-exclusion spec checks over n
// processes: mutual exclusion (safety, from ref), for each process that a
// request is eventually granted (liveness under the run's fairness, from
// liveRef), and a witness that each process can enter at all.
func MutexProperties[S any](n int, ref, liveRef string, phases func(s *S) Phases) []model.Property[S] {
	props := []model.Property[S]{MutualExclusion(ref, phases)}
	for i := 0; i < n; i++ {
		props = append(props, RequestGranted(i, liveRef, phases))
	}
	for i := 0; i < n; i++ {
		props = append(props, CanEnter(i, liveRef, phases))
	}
	return props
}
