// Package conformance is the kit of checks mc runs on every spec it
// registers, as one call from a test of one's own, for a spec that lives in
// another module:
//
//	func TestConformance(t *testing.T) {
//		conformance.Check(t, specs.Of(myspec.Spec), conformance.Options{
//			Mutants: []conformance.Mutant{
//				{Name: "a slip", Spec: conformance.Mutate(myspec.Spec, aSlip)},
//			},
//		})
//	}
//
// Check runs, each as a subtest:
//
//   - cites: every rule and property of every variant names the source
//     section it comes from, and no two properties share a name;
//   - codec: Copy, Encode and Decode keep the contract the stores rely on
//     (checker.CheckCodec: the encoding round-trips, copies are
//     independent, a decoded state has the same successors) on the
//     reachable states;
//   - deterministic: two runs, with one and with two workers, report the
//     same counts, verdicts and traces;
//   - meaning: with every option that changes what a run means and that the
//     spec takes, a run checkpointed and interrupted (at its first level,
//     and half-way by a state limit), then resumed with --resume alone,
//     reports the uninterrupted run's figures and exit code, and the trace
//     file it writes replays;
//   - level-0: a run stopped while storing its initial states either saves
//     a checkpoint that resumes or says in one line why it saved none, and
//     resuming a directory without a checkpoint is refused in one line;
//   - mutants: every property is failed by one of the mutants given (a
//     property no slip can fail checks nothing).
//
// The meaning and level-0 checks run mc's command line in-process (cli.Run)
// with the spec registered (specs.Add), as a user's checker would run it;
// they write nothing outside the test's temporary directories.
package conformance
