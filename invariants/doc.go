// Package invariants is the library of properties that specs compose, each
// a model.Property under the name every spec gives it, over a small view of
// the spec's state:
//
//   - election (Election: each process's Decision): at-most-one-leader,
//     leader-is-max or -min (LeaderIs), decision-stable, election-complete,
//     leader-elected, eventually-leader and election-terminates; and, for
//     the specs whose processes learn the winner's id in an announcement
//     round (Outcome), all of them at once (OutcomeProperties) with the
//     claims about that round (AnnouncementProps);
//   - mutual exclusion (Phases: each process idle, waiting or in its
//     critical section): mutual-exclusion, request-granted and can-enter.
//
// A spec adds its seed reference, and where its seed words a claim its own
// way, that wording (model.Property.Saying). ProcViews pictures an
// election's processes for mc's drawings.
package invariants
