package everyn

// NotCovered says, for each of mc's own specs that is not written as a
// token-ring template, which hypothesis of the cutoff theorems it fails
// (docs/every-n.md, "mc's specs"): mc check --every-n refuses it with
// this, and README's column "every n" says the same.
var NotCovered = map[string]string{
	"changroberts": idsAndValues + "; Emerson and Kahlon's bounded-update tokens need copies of one finite process, and ids from 1..n are not",
	"lelann":       idsAndValues + "; Emerson and Kahlon's bounded-update tokens need copies of one finite process, and ids from 1..n are not",
	"dkr":          idsAndValues + "; the values relayed change once per phase, about log n times",
	"hp":           idsAndValues + "; the values relayed change once per phase, about log n times",
	"vitanyi":      "processes are not identical: each holds its own id and a clock, and messages carry ids, where the theorems' token carries nothing",
	"hs":           "processes are not identical (each compares its own id with the ids messages carry) and each chooses the direction it sends in, where the theorems need one direction",
	"franklin":     "processes are not identical (each compares its own id with its neighbours') and messages go both ways, where the theorems need one token going one way",
	"vlt":          "processes are not identical (ids), the ring has no common orientation and messages go both ways, where the theorems need one token going one way",
	"suzukikasami": "the token carries a queue of process indices and its holder chooses whom it goes to (the direction: no cutoff exists then, Aminof et al. 2014), and requests are broadcast besides the token",
	"misra":        "two tokens, ping and pong, carry numbers, where the theorems have one token carrying nothing",
}

const idsAndValues = "processes are not identical: each holds its own id and compares it with the ids messages carry, where the theorems' processes are copies of one template passing one token that carries nothing"

// NotATemplate is the refusal for a spec that is neither a template nor
// one of mc's own.
const NotATemplate = "it is not written as a token-ring template (package tokentemplate), so no cutoff theorem is known to apply to it"

// Refusal is why spec, which has no template, is not covered.
func Refusal(spec string) string {
	if why, ok := NotCovered[spec]; ok {
		return why
	}
	return NotATemplate
}
