package vitanyi

import (
	"math/bits"

	"github.com/ringcheck/mc/ring"
)

// Kind is a message's type (seed 001 §2).
type Kind uint8

const (
	// Wakeup tells the clockwise neighbour that an election is on.
	Wakeup Kind = iota
	// Elect is the election message M_j, carrying the id j.
	Elect
	// Sleepwell announces that the election is over; it carries no id.
	Sleepwell
)

var kindNames = [...]string{"wakeup", "M", "sleepwell"}

func (k Kind) String() string { return kindNames[k] }

// Msg is ⟨wakeup⟩, ⟨M j⟩ or ⟨sleepwell⟩. ID is 0 except in ⟨M j⟩.
type Msg = ring.Tagged[Kind]

// msgBits is the message's length in bits as §2 counts them: a wakeup "can
// consist of a single bit" and the sleepwell "of but a few bits" (one each,
// as the 2N term of the paper's bit bound charges them), and M_j carries j
// in dyadic notation, one bit per dyadic digit. Like the paper, we do not
// charge for telling the three kinds apart.
func msgBits(m Msg) int {
	if m.Kind == Elect {
		return DyadicLen(m.ID)
	}
	return 1
}

// DyadicLen is the number of digits of i ≥ 1 in dyadic notation (§2: digits
// 1 and 2 with binary weights, no leading zeroes; 1, 2, 3, 4, 5, 6 are 1, 2,
// 11, 21, 12, 22). The dyadic numerals of length d are the 2^d numbers
// 2^d − 1 … 2^(d+1) − 2, so the length is ⌊log2(i+1)⌋.
func DyadicLen(i int) int { return bits.Len(uint(i+1)) - 1 }
